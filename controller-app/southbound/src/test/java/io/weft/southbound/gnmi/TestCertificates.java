package io.weft.southbound.gnmi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificate authorities and switch certificates for tests against the Go switch agent, made with the
 * JDK's keytool only: a CA's certificate as PEM (what the controller pins as {@code gnmi.caFile}), and a
 * server certificate signed by it for 127.0.0.1 with its private key as PKCS#8 PEM (what the agent's
 * {@code --tls-cert}/{@code --tls-key} read).
 */
final class TestCertificates {
    private static final String PASS = "changeit";
    private final Path dir;

    TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** A new self-signed CA; returns its certificate's PEM file. */
    Path authority(String name) throws IOException {
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                "-ext", "bc:c", "-validity", "2", "-storetype", "PKCS12", "-keystore", store(name), "-storepass", PASS);
        Path pem = dir.resolve(name + ".pem");
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", store(name), "-storepass", PASS,
                "-file", pem.toString());
        return pem;
    }

    /** A certificate for 127.0.0.1 signed by CA {@code ca}: {certificate PEM, PKCS#8 key PEM}. */
    Path[] signed(String ca, String name) throws IOException {
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                "-validity", "2", "-storetype", "PKCS12", "-keystore", store(name), "-storepass", PASS);
        Path csr = dir.resolve(name + ".csr");
        keytool("-certreq", "-alias", name, "-keystore", store(name), "-storepass", PASS, "-file", csr.toString());
        Path cert = dir.resolve(name + ".pem");
        keytool("-gencert", "-rfc", "-alias", ca, "-keystore", store(ca), "-storepass", PASS, "-infile",
                csr.toString(), "-outfile", cert.toString(), "-ext", "SAN=IP:127.0.0.1", "-validity", "2");
        Path key = dir.resolve(name + ".key");
        try (InputStream in = Files.newInputStream(dir.resolve(name + ".p12"))) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASS.toCharArray());
            Key k = ks.getKey(name, PASS.toCharArray());
            Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(k.getEncoded())
                    + "\n-----END PRIVATE KEY-----\n");
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("cannot read the key of " + name + ": " + e.getMessage(), e);
        }
        return new Path[] {cert, key};
    }

    private String store(String name) {
        return dir.resolve(name + ".p12").toString();
    }

    private static void keytool(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("keytool " + args[0] + " failed: " + out.trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
