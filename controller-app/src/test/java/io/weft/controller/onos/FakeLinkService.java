package io.weft.controller.onos;

import static org.onosproject.net.NetTestTools.PID;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.Link;
import org.onosproject.net.link.LinkListener;
import org.onosproject.net.link.LinkServiceAdapter;

/** Unidirectional links in a set; records the listeners it was given. */
class FakeLinkService extends LinkServiceAdapter {
    final Set<Link> links = new LinkedHashSet<>();
    final List<LinkListener> listeners = new ArrayList<>();

    /** One direction, "device:a/1" to "device:b/2". */
    Link add(String src, String dst, Link.State state, String latencyNs) {
        DefaultAnnotations.Builder a = DefaultAnnotations.builder();
        if (latencyNs != null) {
            a.set(OnosFabricBuilder.LATENCY_NS_ANNOTATION, latencyNs);
        }
        Link l = DefaultLink.builder().providerId(PID)
                .src(ConnectPoint.deviceConnectPoint(src)).dst(ConnectPoint.deviceConnectPoint(dst))
                .type(Link.Type.DIRECT).state(state).annotations(a.build()).build();
        links.add(l);
        return l;
    }

    /** Both directions, active, no annotations. */
    void addDuplex(String a, String b) {
        add(a, b, Link.State.ACTIVE, null);
        add(b, a, Link.State.ACTIVE, null);
    }

    Link remove(String src, String dst) {
        ConnectPoint s = ConnectPoint.deviceConnectPoint(src);
        ConnectPoint d = ConnectPoint.deviceConnectPoint(dst);
        Link gone = links.stream().filter(l -> l.src().equals(s) && l.dst().equals(d)).findFirst().orElseThrow();
        links.remove(gone);
        return gone;
    }

    @Override
    public Iterable<Link> getLinks() {
        return new ArrayList<>(links);
    }

    @Override
    public int getLinkCount() {
        return links.size();
    }

    @Override
    public void addListener(LinkListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(LinkListener listener) {
        listeners.remove(listener);
    }
}
