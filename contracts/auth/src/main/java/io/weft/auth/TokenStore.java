package io.weft.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The accepted bearer tokens. Only SHA-256 digests of token values are kept, so a heap dump or a
 * debug log of this object does not leak them, and lookups compare digests of equal length
 * (no early-exit timing on the secret).
 *
 * <p>Two sources, merged: the WEFT_TOKENS format {@code name:scope[:nic1,nic2]=token;...} and a
 * JSON file {@code {"tokens":[{"name":"a1","scope":"agent","nics":["n1"],"token":"..."}]}}
 * (contracts/auth.md). Errors name the entry but never echo a token value.
 */
public final class TokenStore {
    private static final int MIN_TOKEN_CHARS = 16;

    private final Map<String, Caller> byDigest;

    private TokenStore(Map<String, Caller> byDigest) {
        this.byDigest = Map.copyOf(byDigest);
    }

    /** No token at all: every door that needs one answers 401. */
    public static TokenStore empty() {
        return new TokenStore(Map.of());
    }

    /**
     * Both sources merged.
     *
     * @param inline the WEFT_TOKENS format, or null/blank
     * @param file   a tokens file, or null
     * @throws IllegalArgumentException a bad entry (named, never with its token value)
     */
    public static TokenStore of(String inline, Path file) {
        Map<String, Caller> map = new HashMap<>();
        Set<String> names = new LinkedHashSet<>();
        if (inline != null && !inline.isBlank()) {
            parseInline(inline, map, names);
        }
        if (file != null) {
            parseFile(file, map, names);
        }
        return new TokenStore(map);
    }

    public int size() {
        return byDigest.size();
    }

    public Optional<Caller> lookup(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(byDigest.get(digest(token)));
    }

    static void parseInline(String text, Map<String, Caller> map, Set<String> names) {
        String[] entries = text.split(";");
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].trim();
            if (entry.isEmpty()) {
                continue;
            }
            String where = "WEFT_TOKENS entry " + (i + 1);
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq == entry.length() - 1) {
                throw new IllegalArgumentException(where + ": expected name:scope[:nics]=token");
            }
            String[] head = entry.substring(0, eq).split(":", -1);
            if (head.length < 2 || head.length > 3) {
                throw new IllegalArgumentException(where + ": expected name:scope[:nics]=token");
            }
            List<String> nics = head.length == 3 ? splitNics(head[2]) : List.of();
            add(where, head[0].trim(), head[1], nics, entry.substring(eq + 1).trim(), map, names);
        }
    }

    static void parseFile(Path file, Map<String, Caller> map, Set<String> names) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read tokens file: " + e.getMessage());
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": not valid JSON: " + e.getOriginalMessage());
        }
        JsonNode tokens = root.path("tokens");
        if (!tokens.isArray()) {
            throw new IllegalArgumentException(file + ": $.tokens: must be an array");
        }
        for (int i = 0; i < tokens.size(); i++) {
            JsonNode t = tokens.get(i);
            String where = file + ": $.tokens[" + i + "]";
            List<String> nics = new ArrayList<>();
            for (JsonNode n : t.path("nics")) {
                nics.add(n.asText());
            }
            add(where, t.path("name").asText(""), t.path("scope").asText(""), nics,
                    t.path("token").asText(""), map, names);
        }
    }

    private static void add(String where, String name, String scopeText, List<String> nics, String token,
                            Map<String, Caller> map, Set<String> names) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException(where + ": name: required");
        }
        Scope scope;
        try {
            scope = Scope.parse(scopeText);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
        if (scope == Scope.AGENT && nics.isEmpty()) {
            throw new IllegalArgumentException(where + " (" + name + "): an agent token must list its NIC ids");
        }
        if (scope != Scope.AGENT && !nics.isEmpty()) {
            throw new IllegalArgumentException(where + " (" + name + "): only agent tokens are bound to NICs");
        }
        if (token.length() < MIN_TOKEN_CHARS) {
            throw new IllegalArgumentException(where + " (" + name + "): token must have at least "
                    + MIN_TOKEN_CHARS + " characters");
        }
        if (!names.add(name)) {
            throw new IllegalArgumentException(where + ": name '" + name + "' is used twice");
        }
        if (map.putIfAbsent(digest(token), new Caller(name, scope, Set.copyOf(nics))) != null) {
            throw new IllegalArgumentException(where + " (" + name + "): same token value as another entry");
        }
    }

    private static List<String> splitNics(String text) {
        List<String> out = new ArrayList<>();
        for (String s : text.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    static String digest(String token) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder(64);
            for (byte b : d) {
                sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
