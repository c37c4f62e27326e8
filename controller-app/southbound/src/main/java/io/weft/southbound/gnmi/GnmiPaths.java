package io.weft.southbound.gnmi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.github.gnmi.proto.Path;
import com.github.gnmi.proto.PathElem;

/**
 * Path strings of the device intent ({@code /interfaces/interface[name=Ethernet0]}) to gnmi.Path and
 * back. Each element is split on "/" outside brackets, so key values may hold "/" (prefixes such as
 * {@code fcbb:bb00:1::/48}); "]" and "\" inside a key value are escaped with "\" as in the gNMI path
 * conventions. The canonical string ({@link #format}) sorts keys, so a path read back from a switch
 * in a different key order still names the same op.
 */
public final class GnmiPaths {
    private GnmiPaths() {
    }

    /**
     * @throws IllegalArgumentException the path is not absolute or a bracket is unbalanced (message names the path)
     */
    public static Path parse(String origin, String path) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path: must start with '/', got '" + path + "'");
        }
        Path.Builder b = Path.newBuilder();
        if (origin != null && !origin.isEmpty()) {
            b.setOrigin(origin);
        }
        for (String elem : splitElems(path)) {
            b.addElem(elem(elem, path));
        }
        return b.build();
    }

    /** {@code origin:/a/b[k=v]} with keys in name order; no origin part when the path has none. */
    public static String format(Path path) {
        return format(path.getOrigin(), path.getElemList());
    }

    /** The canonical string of a prefix followed by a path (as in a Notification); origin from either. */
    public static String format(Path prefix, Path path) {
        List<PathElem> elems = new ArrayList<>(prefix.getElemList());
        elems.addAll(path.getElemList());
        String origin = path.getOrigin().isEmpty() ? prefix.getOrigin() : path.getOrigin();
        return format(origin, elems);
    }

    /** The canonical string of an op given as origin and path string. */
    public static String key(String origin, String path) {
        return format(parse(origin, path));
    }

    private static String format(String origin, List<PathElem> elems) {
        StringBuilder s = new StringBuilder();
        if (!origin.isEmpty()) {
            s.append(origin).append(':');
        }
        if (elems.isEmpty()) {
            s.append('/');
        }
        for (PathElem e : elems) {
            s.append('/').append(e.getName());
            for (Map.Entry<String, String> k : new TreeMap<>(e.getKeyMap()).entrySet()) {
                s.append('[').append(k.getKey()).append('=')
                        .append(k.getValue().replace("\\", "\\\\").replace("]", "\\]")).append(']');
            }
        }
        return s.toString();
    }

    private static List<String> splitElems(String path) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inKey = false;
        for (int i = 1; i < path.length(); i++) {
            char c = path.charAt(i);
            if (inKey && c == '\\' && i + 1 < path.length()) {
                cur.append(c).append(path.charAt(++i));
                continue;
            }
            if (c == '[') {
                inKey = true;
            } else if (c == ']') {
                inKey = false;
            } else if (c == '/' && !inKey) {
                out.add(cur.toString());
                cur.setLength(0);
                continue;
            }
            cur.append(c);
        }
        if (inKey) {
            throw new IllegalArgumentException("path: unbalanced '[' in '" + path + "'");
        }
        if (cur.length() > 0) {
            out.add(cur.toString());
        }
        for (String e : out) {
            if (e.isEmpty()) {
                throw new IllegalArgumentException("path: empty element in '" + path + "'");
            }
        }
        return out;
    }

    private static PathElem elem(String text, String path) {
        int open = text.indexOf('[');
        PathElem.Builder b = PathElem.newBuilder().setName(open < 0 ? text : text.substring(0, open));
        int i = open;
        while (i >= 0 && i < text.length()) {
            if (text.charAt(i) != '[') {
                throw new IllegalArgumentException("path: expected '[' at '" + text.substring(i)
                        + "' in '" + path + "'");
            }
            int eq = text.indexOf('=', i);
            if (eq < 0) {
                throw new IllegalArgumentException("path: key without '=' in '" + path + "'");
            }
            StringBuilder value = new StringBuilder();
            int j = eq + 1;
            for (; j < text.length() && text.charAt(j) != ']'; j++) {
                char c = text.charAt(j);
                if (c == '\\' && j + 1 < text.length()) {
                    c = text.charAt(++j);
                }
                value.append(c);
            }
            String name = text.substring(i + 1, eq);
            if (name.isEmpty()) {
                throw new IllegalArgumentException("path: empty key name in '" + path + "'");
            }
            b.putKey(name, value.toString());
            i = j + 1;
        }
        return b.build();
    }
}
