package io.weft.scheduler.agent;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * A NIC's current EV profile as the JSON bytes sent to agents, serialised once per NIC and version:
 * when one job change wakes the ten agents of a NIC, or agents pull at a high rate, Jackson runs
 * once per version, not once per response. Uses the application's mapper, so the bytes are those
 * Spring MVC's message converter would have written.
 */
@Component
class ProfileBytes {
    /** The serialised profile of one version. */
    record Json(long version, byte[] bytes) {
    }

    private final ProfileReader profiles;
    private final ObjectMapper json;
    private final Map<String, Json> latest = new ConcurrentHashMap<>();

    ProfileBytes(ProfileReader profiles, ObjectMapper json) {
        this.profiles = profiles;
        this.json = json;
    }

    /** The NIC's profile at its latest committed version (or newer), serialised. */
    Json current(String nic) {
        EvProfile p = profiles.current(nic);
        Json cached = latest.get(nic);
        if (cached != null && cached.version() >= p.version()) {
            return cached;
        }
        // compute() serialises writers of one NIC: the first serialises, the others reuse its bytes.
        return latest.compute(nic, (k, old) -> old != null && old.version() >= p.version() ? old
                : new Json(p.version(), json.writeValueAsBytes(p)));
    }
}
