package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.weft.contracts.KafkaAccess;
import org.junit.jupiter.api.Test;

/**
 * The Strimzi users of the prod overlay (deploy/k8s/overlays/prod/kafka-users.yaml, written by
 * gen-kafka-users.py from contracts/topics.json) grant exactly what {@link KafkaAccess} derives, which is
 * what {@link KafkaSecureListenerTest} proves on a real broker: the Python and the Java reading of the
 * catalogue cannot drift apart.
 */
class KafkaUsersManifestTest {
    private static final Path MANIFEST = Path.of("../deploy/k8s/overlays/prod/kafka-users.yaml");
    private static final Pattern USER = Pattern.compile("(?m)^kind: KafkaUser\\n(?:.*\\n)*?  name: (\\S+)$");
    private static final Pattern ACL = Pattern.compile(
            "- resource: \\{ type: (\\w+), name: \"([^\"]+)\", patternType: (\\w+) }\\n\\s+operations: \\[(\\w+)");

    @Test
    void theProdUsersGrantWhatTheBrokerTestsEnforce() throws Exception {
        Set<String> manifest = new TreeSet<>();
        for (String doc : Files.readString(MANIFEST).split("(?m)^---$")) {
            Matcher user = USER.matcher(doc);
            if (!user.find()) {
                continue;
            }
            Matcher acl = ACL.matcher(doc);
            while (acl.find()) {
                manifest.add(user.group(1) + " " + acl.group(4).toUpperCase() + " " + acl.group(1).toUpperCase() + " "
                        + acl.group(2) + (acl.group(3).equals("prefix") ? "*" : ""));
            }
        }
        Set<String> derived = new TreeSet<>();
        KafkaAccess.catalogue().grants().forEach(g -> derived.add(g.toString()));
        assertThat(manifest).isNotEmpty().isEqualTo(derived);
    }
}
