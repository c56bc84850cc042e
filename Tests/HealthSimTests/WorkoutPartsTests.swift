import Foundation
import HealthSim
import Testing

@Suite("Workout events, statistics and routes")
struct WorkoutPartsTests {
  let details = WorkoutDetails(
    activityType: .running, duration: 1800, totalEnergyBurned: 300,
    events: [
      WorkoutEvent(type: .pause, date: at(10)),
      WorkoutEvent(type: .segment, date: at(0), duration: 450, metadata: ["Split": .number(1)]),
    ],
    statistics: [
      WorkoutStatistic(
        typeIdentifier: "HKQuantityTypeIdentifierHeartRate", startDate: at(0), endDate: at(30),
        average: 150, minimum: 96, maximum: 178, unit: "count/min")
    ],
    routes: [
      WorkoutRoute(
        sourceRevision: scaleSource, startDate: at(0), endDate: at(30),
        filePath: "/workout-routes/route_1.gpx")
    ])

  @Test("event types have HealthKit's raw values and export names")
  func eventTypes() {
    #expect(WorkoutEventType.pause.rawValue == 1)
    #expect(WorkoutEventType.pauseOrResumeRequest.rawValue == 8)
    #expect(WorkoutEventType.motionPaused.exportName == "HKWorkoutEventTypeMotionPaused")
    for type in WorkoutEventType.allCases {
      #expect(WorkoutEventType(exportName: type.exportName) == type)
    }
    #expect(WorkoutEventType(exportName: "HKWorkoutEventTypeSprint") == nil)
  }

  @Test("a workout keeps its parts through save, query and persistence")
  func keptThroughTheStore() throws {
    let store = makeStore()
    var feed: [HealthChange] = []
    store.recorder = { feed.append($0) }
    let saved = try store.save([HealthSample(workout: details, start: at(0))])[0]
    #expect(try store.samples(of: .workout).first?.workout == details)
    let replayed = HealthStore(clock: epoch)
    for change in feed { replayed.apply(change) }
    #expect(replayed.allSamples(of: .workout) == [saved])
  }

  @Test("details without parts encode as before, and old encodings decode with none")
  func backwardCompatible() throws {
    let plain = WorkoutDetails(activityType: .yoga, duration: 600)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let text = String(decoding: try encoder.encode(plain), as: UTF8.self)
    #expect(text == #"{"activityType":"yoga","duration":600}"#)
    let old = #"{"activityType":"running","duration":60,"totalDistance":200}"#
    let decoded = try JSONDecoder().decode(WorkoutDetails.self, from: Data(old.utf8))
    #expect(decoded.events.isEmpty && decoded.statistics.isEmpty && decoded.routes.isEmpty)
    #expect(decoded.totalDistance == 200)
    let again = try JSONDecoder().decode(WorkoutDetails.self, from: encoder.encode(details))
    #expect(again == details)
  }

  @Test("Health refuses parts with values that are not finite or negative durations")
  func invalidParts() {
    let store = makeStore()
    let bad = [
      WorkoutDetails(
        activityType: .running, duration: 60,
        events: [WorkoutEvent(type: .lap, date: at(0), duration: -1)]),
      WorkoutDetails(
        activityType: .running, duration: 60,
        statistics: [
          WorkoutStatistic(
            typeIdentifier: "HKQuantityTypeIdentifierHeartRate", startDate: at(0),
            endDate: at(1), average: .nan, unit: "count/min")
        ]),
      WorkoutDetails(activityType: .running, duration: 60, totalEnergyBurned: .infinity),
      WorkoutDetails(
        activityType: .running, duration: 60,
        routes: [WorkoutRoute(sourceRevision: nil, startDate: at(1), endDate: at(0))]),
    ]
    for details in bad {
      #expect {
        try store.save([HealthSample(workout: details, start: at(0))])
      } throws: { ($0 as? HealthError)?.code == .errorInvalidArgument }
    }
    #expect(store.liveSampleCount(of: .workout) == 0)
  }
}
