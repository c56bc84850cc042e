import HealthSim
import Testing

@Test func simulatorHasAVersion() { #expect(!HealthSimVersion.current.isEmpty) }
