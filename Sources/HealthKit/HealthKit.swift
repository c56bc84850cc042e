// Apple's HealthKit, as far as apps use it, over the HealthSim engine. See
// docs/healthkit-on-linux.md.
@_exported import Foundation
