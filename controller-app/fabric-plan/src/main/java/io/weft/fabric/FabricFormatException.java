package io.weft.fabric;

/**
 * A fabric file that cannot be read or is not valid. The message is one line that names the
 * place ({@code $.links[3].capacityGbps}) and what is wrong; tools print it as is.
 */
public final class FabricFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public FabricFormatException(String message) {
        super(message);
    }
}
