// The plain start tags of an Apple Health export read in C, because Swift cannot reach the
// byte compares of SSE2 (`pcmpeqb`, `pmovmskb`): 16 bytes of a value looked at in about a dozen
// instructions, where Swift's eight-byte words took about 2.6 instructions a byte, and a whole
// tag's attributes read in one loop without Swift's array and exclusivity checks per
// attribute. `AppleHealthExportParser.startTag` reads every other tag (and every malformed
// one, for its error) its general way; `AppleHealthExportPlainTagTests` checks both ways agree.

#include "weigh_xml_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Bytes that end a name: the attribute's (`NAME_STOP`): up to 0x20, `<`, `=`, `>`, `/`; the
// element's (`ELEMENT_STOP`) also `"` and `'`. A name in a plain tag ends only at the byte
// that must follow it (a space, `>` or `/` for the element, `=` for an attribute); any other
// byte that stops it sends the tag to the general reader.
enum { NAME_STOP = 1, ELEMENT_STOP = 2 };

static const uint8_t stops[256] = {
  [0 ... 0x20] = NAME_STOP | ELEMENT_STOP,
  ['"'] = ELEMENT_STOP,
  ['\''] = ELEMENT_STOP,
  ['/'] = NAME_STOP | ELEMENT_STOP,
  ['<'] = NAME_STOP | ELEMENT_STOP,
  ['='] = NAME_STOP | ELEMENT_STOP,
  ['>'] = NAME_STOP | ELEMENT_STOP,
};

static inline int value_byte_stops(uint8_t byte, uint8_t quote) {
  return byte == quote || byte == '<' || byte == '&' || byte < 0x20;
}

intptr_t weigh_xml_value_stop(const uint8_t *bytes, intptr_t from, intptr_t count, uint8_t quote) {
  intptr_t at = from;
#if defined(__SSE2__)
  const __m128i quotes = _mm_set1_epi8((char)quote);
  const __m128i less = _mm_set1_epi8('<');
  const __m128i ampersands = _mm_set1_epi8('&');
  const __m128i control = _mm_set1_epi8(0x1F);
  while (at + 16 <= count) {
    __m128i v = _mm_loadu_si128((const __m128i *)(bytes + at));
    // A byte below 0x20 is its own unsigned minimum with 0x1F.
    __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, control), v);
    __m128i found = _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(v, quotes), _mm_cmpeq_epi8(v, less)),
      _mm_or_si128(_mm_cmpeq_epi8(v, ampersands), low));
    int mask = _mm_movemask_epi8(found);
    if (mask != 0) return at + __builtin_ctz((unsigned)mask);
    at += 16;
  }
#endif
  while (at < count && !value_byte_stops(bytes[at], quote)) at++;
  return at;
}

// The index of the first byte of `bytes[at..<count]` that ends a name (`kind`, one of
// NAME_STOP and ELEMENT_STOP), `count` when there is none: 16 bytes at a time, where the
// table took about five instructions a byte of Apple's attribute names.
static inline intptr_t name_stop(const uint8_t *bytes, intptr_t at, intptr_t count, uint8_t kind) {
#if defined(__SSE2__)
  const __m128i spaces = _mm_set1_epi8(0x20);
  const __m128i less = _mm_set1_epi8('<');
  const __m128i two = _mm_set1_epi8(2);
  const __m128i slashes = _mm_set1_epi8('/');
  const __m128i quotes = _mm_set1_epi8('"');
  const __m128i apostrophes = _mm_set1_epi8('\'');
  while (at + 16 <= count) {
    __m128i v = _mm_loadu_si128((const __m128i *)(bytes + at));
    // Up to 0x20: its own unsigned minimum with 0x20; `<`, `=`, `>`: 0 to 2 once `<` is
    // taken away.
    __m128i offset = _mm_sub_epi8(v, less);
    __m128i found = _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, spaces), v),
                   _mm_cmpeq_epi8(_mm_min_epu8(offset, two), offset)),
      _mm_cmpeq_epi8(v, slashes));
    if (kind == ELEMENT_STOP) {
      found = _mm_or_si128(
        found, _mm_or_si128(_mm_cmpeq_epi8(v, quotes), _mm_cmpeq_epi8(v, apostrophes)));
    }
    int mask = _mm_movemask_epi8(found);
    if (mask != 0) return at + __builtin_ctz((unsigned)mask);
    at += 16;
  }
#endif
  while (at < count && !(stops[bytes[at]] & kind)) at++;
  return at;
}

intptr_t weigh_xml_plain_tag(
  const uint8_t *bytes, intptr_t start, intptr_t count, weigh_xml_attribute *attributes,
  intptr_t capacity, intptr_t *nameEnd, intptr_t *attributeCount, bool *selfClosing) {
  intptr_t at = start;
  at = name_stop(bytes, at, count, ELEMENT_STOP);
  if (at == start || at >= count) return -1;
  uint8_t after = bytes[at];
  if (after != ' ' && after != '>' && after != '/') return -1;
  *nameEnd = at;
  intptr_t found = 0;
  for (;;) {
    intptr_t spaces = at;
    while (at < count && bytes[at] == ' ') at++;
    if (at >= count) return -1;
    uint8_t byte = bytes[at];
    if (byte == '>') {
      *selfClosing = false;
      at += 1;
      break;
    }
    if (byte == '/') {
      if (at + 1 >= count || bytes[at + 1] != '>') return -1;
      *selfClosing = true;
      at += 2;
      break;
    }
    if (at == spaces || found == capacity) return -1;
    intptr_t name = at;
    at = name_stop(bytes, at, count, NAME_STOP);
    if (at == name || at + 1 >= count || bytes[at] != '=') return -1;
    intptr_t end = at;
    uint8_t quote = bytes[at + 1];
    if (quote != '"' && quote != '\'') return -1;
    at += 2;
    intptr_t value = at;
    bool decoded = false;
    for (;;) {
      at = weigh_xml_value_stop(bytes, at, count, quote);
      if (at >= count) return -1;
      if (bytes[at] == quote) break;
      // `&lt;` and `&gt;` only (four in each device's description); other references, `<`
      // and line breaks are the general reader's.
      if (bytes[at] != '&' || at + 4 > count) return -1;
      if ((bytes[at + 1] != 'l' && bytes[at + 1] != 'g') || bytes[at + 2] != 't'
          || bytes[at + 3] != ';') {
        return -1;
      }
      decoded = true;
      at += 4;
    }
    attributes[found] = (weigh_xml_attribute){name, end, value, at, decoded};
    found += 1;
    at += 1;
  }
  *attributeCount = found;
  return at;
}
