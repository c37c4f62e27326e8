package io.weft.southbound.gnmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void memberOrderDoesNotMatterArrayOrderDoes() throws Exception {
        String a = "{\"b\":1,\"a\":{\"y\":[1,2],\"x\":\"s\"},\"c\":true}";
        String b = "{\"c\":true,\"a\":{\"x\":\"s\",\"y\":[1,2]},\"b\":1}";
        String c = "{\"c\":true,\"a\":{\"x\":\"s\",\"y\":[2,1]},\"b\":1}";
        assertThat(new String(CanonicalJson.bytes(json.readTree(a)), StandardCharsets.UTF_8))
                .isEqualTo("{\"a\":{\"x\":\"s\",\"y\":[1,2]},\"b\":1,\"c\":true}");
        assertThat(CanonicalJson.digest(json.readTree(a))).isEqualTo(CanonicalJson.digest(json.readTree(b)));
        assertThat(CanonicalJson.digest(json.readTree(a))).isNotEqualTo(CanonicalJson.digest(json.readTree(c)));
    }

    @Test
    void keyedListsCompareInAnyOrderNextHopsDoNot() throws Exception {
        String routes = "{\"static\":[{\"prefix\":\"fcbb:bb00:2::/48\",\"next-hops\":{\"next-hop\":[{\"index\":\"0\"},"
                + "{\"index\":\"1\"}]}},"
                + "{\"prefix\":\"fcbb:bb00:1::/48\"}]}";
        String byKey = "{\"static\":[{\"prefix\":\"fcbb:bb00:1::/48\"},"
                + "{\"next-hops\":{\"next-hop\":[{\"index\":\"0\"},{\"index\":\"1\"}]},\"prefix\":\"fcbb:bb00:2::/"
                + "48\"}]}";
        String hopsSwapped = "{\"static\":[{\"prefix\":\"fcbb:bb00:1::/48\"},"
                + "{\"next-hops\":{\"next-hop\":[{\"index\":\"1\"},{\"index\":\"0\"}]},\"prefix\":\"fcbb:bb00:2::/"
                + "48\"}]}";
        assertThat(CanonicalJson.digest(json.readTree(routes))).isEqualTo(CanonicalJson.digest(json.readTree(byKey)));
        assertThat(CanonicalJson.digest(json.readTree(routes)))
                .isNotEqualTo(CanonicalJson.digest(json.readTree(hopsSwapped)));
        // On the wire too: routes by prefix, next hops as rendered.
        assertThat(new String(CanonicalJson.bytes(json.readTree(routes)), StandardCharsets.UTF_8))
                .isEqualTo(new String(CanonicalJson.bytes(json.readTree(byKey)), StandardCharsets.UTF_8))
                .startsWith("{\"static\":[{\"prefix\":\"fcbb:bb00:1::/48\"}");
    }

    @Test
    void valuesKeepTheirType() throws Exception {
        assertThat(CanonicalJson.digest(json.readTree("{\"i\":0}")))
                .isNotEqualTo(CanonicalJson.digest(json.readTree("{\"i\":\"0\"}")));
        assertThat(new String(CanonicalJson.bytes(json.readTree("{\"n\":null,\"f\":1.50,\"u\":\"\\u00e9\"}")),
                StandardCharsets.UTF_8)).isEqualTo("{\"f\":1.5,\"n\":null,\"u\":\"é\"}");
    }
}
