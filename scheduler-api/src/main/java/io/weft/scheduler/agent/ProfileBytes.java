package io.weft.scheduler.agent;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectWriter;

/**
 * A NIC's current EV profile as the JSON bytes sent to agents, serialised once per NIC and version:
 * when one job change wakes the ten agents of a NIC, or agents pull at a high rate, Jackson runs
 * once per version, not once per response. Uses the application's mapper, so the bytes are those
 * Spring MVC's message converter would have written. The answer's version headers are encoded
 * once per version too.
 */
@Component
class ProfileBytes {
    /** Header of a profile answer: when its version was published (epoch µs); absent when unknown. */
    static final String PUBLISHED_HEADER = "Weft-Published-Us";
    static final String VERSION_HEADER = "Weft-Version";

    /**
     * The serialised profile of one version; {@code publishedUs} is when the version was published
     * to agents (epoch µs, 0 when unknown) and {@code published} its header (null when unknown).
     */
    record Json(long version, byte[] bytes, long publishedUs, HttpField versionHeader, HttpField published) {
    }

    private final ProfileReader profiles;
    /** The application mapper's writer for profiles, its serializer looked up once, not per version. */
    private final ObjectWriter json;
    private final PathBoard board;
    private final Map<String, Json> latest = new ConcurrentHashMap<>();

    ProfileBytes(ProfileReader profiles, ObjectMapper json, PathBoard board) {
        this.profiles = profiles;
        this.json = json.writerFor(EvProfile.class);
        this.board = board;
    }

    /** The NIC's profile at its latest committed version (or newer), serialised. */
    Json current(String nic) {
        EvProfile p = profiles.current(nic);
        Json cached = latest.get(nic);
        if (cached != null && cached.version() >= p.version()) {
            return cached;
        }
        // compute() serialises writers of one NIC: the first serialises, the others reuse its bytes.
        return latest.compute(nic, (k, old) -> old != null && old.version() >= p.version() ? old : encode(p));
    }

    private Json encode(EvProfile p) {
        long at = board.publishedUs(p.nic(), p.version());
        return new Json(p.version(), json.writeValueAsBytes(p), at,
                new PreEncodedHttpField(VERSION_HEADER, Long.toString(p.version())),
                at == 0 ? null : new PreEncodedHttpField(PUBLISHED_HEADER, Long.toString(at)));
    }
}
