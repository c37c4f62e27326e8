package io.weft.controller.standalone;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The controller's HTTPS context from a PKCS#12 key store whose password sits in a file (never on the command line).
 */
final class TlsContexts {
    private TlsContexts() {
    }

    /** Throws a one-line IllegalArgumentException naming the file when the store cannot be used. */
    static SSLContext serverContext(ControllerOptions.Tls tls) {
        char[] password;
        try {
            password = Files.readString(tls.passwordFile()).strip().toCharArray();
        } catch (IOException e) {
            throw new IllegalArgumentException("--tls-keystore-password-file " + tls.passwordFile() + ": cannot read: "
                    + e.getMessage());
        }
        try (InputStream in = Files.newInputStream(tls.keyStore())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, password);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            return ctx;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--tls-keystore " + tls.keyStore() + ": not a usable PKCS#12 key store: "
                    + e.getMessage());
        }
    }
}
