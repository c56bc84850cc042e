/// The inline DTD weigh writes into `export.xml`, declaring the elements of Apple's export
/// version 14 (HealthData, Record, Correlation, Workout and their children). Readers skip it.
public enum AppleHealthExportDTD {
  /// The export version written in the DTD's first comment.
  public static let version = 14

  /// `<!DOCTYPE HealthData [ … ]>`, one declaration a line.
  public static let text = """
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: \(version) -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    <!ELEMENT ExportDate EMPTY>
    <!ATTLIST ExportDate
      value CDATA #REQUIRED
    >
    <!ELEMENT Me EMPTY>
    <!ATTLIST Me
      HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED
      HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED
      HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED
      HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED
      HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse   CDATA #REQUIRED
    >
    <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
    <!ATTLIST Record
      type          CDATA #REQUIRED
      unit          CDATA #IMPLIED
      value         CDATA #IMPLIED
      sourceName    CDATA #REQUIRED
      sourceVersion CDATA #IMPLIED
      device        CDATA #IMPLIED
      creationDate  CDATA #IMPLIED
      startDate     CDATA #REQUIRED
      endDate       CDATA #REQUIRED
    >
    <!-- Any Records that appear as children of a correlation also appear as top-level records in this document. -->
    <!ELEMENT Correlation ((MetadataEntry|Record)*)>
    <!ATTLIST Correlation
      type          CDATA #REQUIRED
      sourceName    CDATA #REQUIRED
      sourceVersion CDATA #IMPLIED
      device        CDATA #IMPLIED
      creationDate  CDATA #IMPLIED
      startDate     CDATA #REQUIRED
      endDate       CDATA #REQUIRED
    >
    <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
    <!ATTLIST Workout
      workoutActivityType   CDATA #REQUIRED
      duration              CDATA #IMPLIED
      durationUnit          CDATA #IMPLIED
      totalDistance         CDATA #IMPLIED
      totalDistanceUnit     CDATA #IMPLIED
      totalEnergyBurned     CDATA #IMPLIED
      totalEnergyBurnedUnit CDATA #IMPLIED
      sourceName            CDATA #REQUIRED
      sourceVersion         CDATA #IMPLIED
      device                CDATA #IMPLIED
      creationDate          CDATA #IMPLIED
      startDate             CDATA #REQUIRED
      endDate               CDATA #REQUIRED
    >
    <!ELEMENT WorkoutEvent (MetadataEntry*)>
    <!ATTLIST WorkoutEvent
      type         CDATA #REQUIRED
      date         CDATA #REQUIRED
      duration     CDATA #IMPLIED
      durationUnit CDATA #IMPLIED
    >
    <!ELEMENT WorkoutStatistics EMPTY>
    <!ATTLIST WorkoutStatistics
      type      CDATA #REQUIRED
      startDate CDATA #REQUIRED
      endDate   CDATA #REQUIRED
      average   CDATA #IMPLIED
      minimum   CDATA #IMPLIED
      maximum   CDATA #IMPLIED
      sum       CDATA #IMPLIED
      unit      CDATA #IMPLIED
    >
    <!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
    <!ATTLIST WorkoutRoute
      sourceName    CDATA #REQUIRED
      sourceVersion CDATA #IMPLIED
      device        CDATA #IMPLIED
      creationDate  CDATA #IMPLIED
      startDate     CDATA #REQUIRED
      endDate       CDATA #REQUIRED
    >
    <!ELEMENT FileReference EMPTY>
    <!ATTLIST FileReference
      path CDATA #REQUIRED
    >
    <!ELEMENT MetadataEntry EMPTY>
    <!ATTLIST MetadataEntry
      key   CDATA #REQUIRED
      value CDATA #REQUIRED
    >
    <!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
    <!ELEMENT InstantaneousBeatsPerMinute EMPTY>
    <!ATTLIST InstantaneousBeatsPerMinute
      bpm  CDATA #REQUIRED
      time CDATA #REQUIRED
    >
    <!ELEMENT ActivitySummary EMPTY>
    <!ATTLIST ActivitySummary
      dateComponents           CDATA #IMPLIED
      activeEnergyBurned       CDATA #IMPLIED
      activeEnergyBurnedGoal   CDATA #IMPLIED
      activeEnergyBurnedUnit   CDATA #IMPLIED
      appleMoveTime            CDATA #IMPLIED
      appleMoveTimeGoal        CDATA #IMPLIED
      appleExerciseTime        CDATA #IMPLIED
      appleExerciseTimeGoal    CDATA #IMPLIED
      appleStandHours          CDATA #IMPLIED
      appleStandHoursGoal      CDATA #IMPLIED
    >
    ]>
    """
}
