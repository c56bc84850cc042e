#ifndef WEIGH_XML_SCAN_H
#define WEIGH_XML_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Where one attribute of a start tag lies in the buffer being parsed, as indexes: its name,
/// and its value between the quotes; `needsDecoding` when the value holds references or
/// line breaks. Swift's `AttributeSlice`.
typedef struct {
  intptr_t nameStart;
  intptr_t nameEnd;
  intptr_t valueStart;
  intptr_t valueEnd;
  bool needsDecoding;
} weigh_xml_attribute;

/// Reads the start tag whose name begins at `start` (just past its `<`) in `bytes[0..<count]`
/// when it is plain: a name, then attributes each after one or more spaces (0x20), written
/// `name="value"` or `name='value'` with no space around the `=`, their values holding no
/// `<`, no byte below 0x20 and no reference but `&lt;` and `&gt;`, then `>` or `/>`, all of it
/// in the buffer, at most `capacity` attributes. Returns the index just past the tag's `>`
/// and sets `*nameEnd`, `*attributeCount` (the attributes written to `attributes`) and
/// `*selfClosing`; returns -1 for any other tag, whatever it is (well-formed or not, cut by
/// the buffer's end), which the caller then reads its general way.
intptr_t weigh_xml_plain_tag(
  const uint8_t *bytes, intptr_t start, intptr_t count, weigh_xml_attribute *attributes,
  intptr_t capacity, intptr_t *nameEnd, intptr_t *attributeCount, bool *selfClosing);

/// The index of the first byte of `bytes[from..<count]` that ends a plain run of an attribute
/// value: `quote`, `<`, `&` or a byte below 0x20; `count` when there is none.
intptr_t weigh_xml_value_stop(const uint8_t *bytes, intptr_t from, intptr_t count, uint8_t quote);

#endif
