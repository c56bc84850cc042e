import Foundation

/// Writes the `export_cda.xml` that Apple's export carries beside `export.xml`: an HL7 CDA
/// R2 document whose Vital Signs section holds one organizer per body-mass or blood-glucose
/// record. Each observation has the CDA code, time and physical quantity, and in its `text`
/// the HealthKit fields as Apple writes them there (`sourceName`, `sourceVersion`, `device`,
/// `value`, `type`, `unit`, `metadataEntry`).
///
/// Output is buffered and handed to `sink` in chunks, as `AppleHealthExportWriter` does.
public final class AppleHealthCDAWriter {
  /// The LOINC code and name of each type the document carries, by HealthKit type.
  static let codes: [String: (code: String, name: String)] = [
    "HKQuantityTypeIdentifierBodyMass": ("3141-9", "Body weight Measured"),
    "HKQuantityTypeIdentifierBloodGlucose": ("2339-0", "Glucose [Mass/volume] in Blood"),
  ]

  /// Whether a record of this HealthKit type belongs in the document.
  public static func carries(_ type: String) -> Bool { codes[type] != nil }

  private var buffer: [UInt8] = []
  private let sink: ([UInt8]) throws -> Void
  private var finished = false

  /// Starts the document: header, patient and author left unknown, the Vital Signs section.
  public init(exportDate: HealthExportDate, sink: @escaping ([UInt8]) throws -> Void) {
    self.sink = sink
    let time = Self.time(exportDate)
    append(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
       <realmCode code="US"/>
       <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
       <templateId root="2.16.840.1.113883.10.20.22.1.2"/>
       <id nullFlavor="NI"/>
       <code code="34109-9" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Note"/>
       <title>Health Export CDA</title>
       <effectiveTime value="\(time)"/>
       <confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25"/>
       <languageCode code="en-US"/>
       <recordTarget><patientRole><id nullFlavor="NI"/><patient><name nullFlavor="NI"/></patient></patientRole></recordTarget>
       <author><time value="\(time)"/><assignedAuthor><id nullFlavor="NI"/><assignedPerson><name>weigh</name></assignedPerson></assignedAuthor></author>
       <custodian><assignedCustodian><representedCustodianOrganization><id nullFlavor="NI"/><name>Health Export</name></representedCustodianOrganization></assignedCustodian></custodian>
       <component>
        <structuredBody>
         <component>
          <section>
           <templateId root="2.16.840.1.113883.10.20.22.2.4.1"/>
           <code code="8716-3" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Vital Signs"/>
           <title>Vital Signs</title>
           <text/>

      """)
  }

  /// Writes one record as an organizer with its observation; other types are left out.
  public func write(_ record: HealthExportRecord) throws {
    guard let code = Self.codes[record.type], let value = record.value, let unit = record.unit
    else { return }
    let low = Self.time(record.startDate)
    let high = Self.time(record.endDate)
    var text = "<sourceName>\(Self.escape(record.sourceName))</sourceName>"
    if let version = record.sourceVersion {
      text += "<sourceVersion>\(Self.escape(version))</sourceVersion>"
    }
    if let device = record.device { text += "<device>\(Self.escape(device))</device>" }
    text += "<value>\(Self.escape(value))</value><type>\(record.type)</type>"
    text += "<unit>\(Self.escape(unit))</unit>"
    for entry in record.metadata {
      text +=
        "<metadataEntry><key>\(Self.escape(entry.key))</key><value>\(Self.escape(entry.value))</value></metadataEntry>"
    }
    append(
      """
           <entry typeCode="DRIV">
            <organizer classCode="CLUSTER" moodCode="EVN">
             <templateId root="2.16.840.1.113883.10.20.22.4.26"/>
             <id nullFlavor="NI"/>
             <code code="46680005" codeSystem="2.16.840.1.113883.6.96" codeSystemName="SNOMED CT" displayName="Vital signs"/>
             <statusCode code="completed"/>
             <effectiveTime><low value="\(low)"/><high value="\(high)"/></effectiveTime>
             <component>
              <observation classCode="OBS" moodCode="EVN">
               <templateId root="2.16.840.1.113883.10.20.22.4.27"/>
               <id nullFlavor="NI"/>
               <code code="\(code.code)" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="\(code.name)"/>
               <text>\(text)</text>
               <statusCode code="completed"/>
               <effectiveTime><low value="\(low)"/><high value="\(high)"/></effectiveTime>
               <value xsi:type="PQ" value="\(Self.escape(value))" unit="\(Self.escape(unit))"/>
              </observation>
             </component>
            </organizer>
           </entry>

      """)
    if buffer.count >= 1 << 20 {
      try sink(buffer)
      buffer.removeAll(keepingCapacity: true)
    }
  }

  /// Closes the document and hands the rest of the output to the sink.
  public func finish() throws {
    guard !finished else { return }
    finished = true
    append(
      """
          </section>
         </component>
        </structuredBody>
       </component>
      </ClinicalDocument>

      """)
    try sink(buffer)
    buffer.removeAll()
  }

  /// Writes the document for `body`'s records to `url`.
  public static func write(
    to url: URL, exportDate: HealthExportDate, body: (AppleHealthCDAWriter) throws -> Void
  ) throws {
    try AppleHealthExportWriter.writeFile(at: url) { sink in
      let writer = AppleHealthCDAWriter(exportDate: exportDate, sink: sink)
      try body(writer)
      try writer.finish()
    }
  }

  /// A CDA time stamp: `20260103073000+0100` for `2026-01-03 07:30:00 +0100`.
  static func time(_ date: HealthExportDate) -> String {
    let text = date.description
    return text.prefix(19).filter(\.isNumber) + text.suffix(5)
  }

  private static func escape(_ text: String) -> String { XMLText.escaped(text) }

  private func append(_ text: String) { buffer.append(contentsOf: text.utf8) }
}
