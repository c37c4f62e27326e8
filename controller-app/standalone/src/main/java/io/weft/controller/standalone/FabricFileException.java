package io.weft.controller.standalone;

/** The fabric file cannot be used (unreadable, malformed, invalid or unplannable); the message is one line. */
final class FabricFileException extends Exception {
    private static final long serialVersionUID = 1L;

    FabricFileException(String message) {
        super(message);
    }
}
