package kernel

import (
	"encoding/binary"
	"fmt"
	"net/netip"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netlink/nl"
	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"
)

// Kernel uapi (include/uapi/linux/seg6_local.h) the netlink library does not know yet: the
// flavours attribute that turns End and End.X into uSID (NEXT-CSID) behaviours.
const (
	seg6LocalFlavors       = 11 // SEG6_LOCAL_FLAVORS, after SEG6_LOCAL_COUNTERS (10)
	seg6LocalFlvOperation  = 1  // SEG6_LOCAL_FLV_OPERATION, u32 bit mask
	seg6LocalFlvLcBlockBit = 2  // SEG6_LOCAL_FLV_LCBLOCK_BITS, u8
	seg6LocalFlvLcNodeBits = 3  // SEG6_LOCAL_FLV_LCNODE_FN_BITS, u8
	seg6LocalFlvOpNextCSID = 4  // SEG6_LOCAL_FLV_OP_NEXT_CSID (bit number)
	nlaFNested             = 0x8000
	nlaTypeMask            = 0x3fff
)

// csidEncap is a seg6local encap with the NEXT-CSID flavour: the library encodes the action,
// table, nh6 and oif, this appends what iproute2 writes for "flavors next-csid lblen L nflen N".
type csidEncap struct {
	netlink.SEG6LocalEncap
	lblen, nflen uint8
}

func (e *csidEncap) Encode() ([]byte, error) {
	b, err := e.SEG6LocalEncap.Encode()
	if err != nil {
		return nil, err
	}
	inner := attr(seg6LocalFlvOperation, binary.NativeEndian.AppendUint32(nil, 1<<seg6LocalFlvOpNextCSID))
	inner = append(inner, attr(seg6LocalFlvLcBlockBit, []byte{e.lblen})...)
	inner = append(inner, attr(seg6LocalFlvLcNodeBits, []byte{e.nflen})...)
	return append(b, attr(seg6LocalFlavors|nlaFNested, inner)...), nil
}

func (e *csidEncap) String() string {
	return fmt.Sprintf("%s flavors next-csid lblen %d nflen %d", e.SEG6LocalEncap.String(), e.lblen, e.nflen)
}

func (e *csidEncap) Equal(x netlink.Encap) bool {
	o, ok := x.(*csidEncap)
	return ok && o.lblen == e.lblen && o.nflen == e.nflen && e.SEG6LocalEncap.Equal(&o.SEG6LocalEncap)
}

// attr is one netlink attribute, padded to 4 bytes.
func attr(typ uint16, value []byte) []byte {
	n := 4 + len(value)
	b := make([]byte, (n+3)&^3)
	binary.NativeEndian.PutUint16(b, uint16(n))
	binary.NativeEndian.PutUint16(b[2:], typ)
	copy(b[4:], value)
	return b
}

// flavor is what a seg6local route carries beyond what the library decodes.
type flavor struct {
	nextCSID     bool
	lblen, nflen int
}

type routeKey struct {
	table int
	dst   netip.Prefix
}

// csidFlavors dumps the IPv6 routes of the namespace with a raw netlink socket and returns the
// NEXT-CSID flavour of every seg6local route that has one: the library's decoder drops it,
// and Get must read lblen/nflen back from the kernel, not from the last Set.
func csidFlavors(ns netns.NsHandle) (map[routeKey]flavor, error) {
	s, err := nl.GetNetlinkSocketAt(ns, netns.None(), unix.NETLINK_ROUTE)
	if err != nil {
		return nil, fmt.Errorf("netlink socket in namespace: %w", err)
	}
	defer s.Close()
	req := nl.NewNetlinkRequest(unix.RTM_GETROUTE, unix.NLM_F_DUMP)
	msg := nl.NewRtMsg()
	msg.Family = unix.AF_INET6
	req.AddData(msg)
	if err := s.Send(req); err != nil {
		return nil, fmt.Errorf("route dump: %w", err)
	}
	out := map[routeKey]flavor{}
	for {
		msgs, _, err := s.Receive()
		if err != nil {
			return nil, fmt.Errorf("route dump: %w", err)
		}
		for _, m := range msgs {
			switch m.Header.Type {
			case unix.NLMSG_DONE:
				return out, nil
			case unix.NLMSG_ERROR:
				return nil, fmt.Errorf("route dump: netlink error")
			case unix.RTM_NEWROUTE:
				if k, f, ok := parseFlavor(m.Data); ok {
					out[k] = f
				}
			}
		}
	}
}

func parseFlavor(data []byte) (routeKey, flavor, bool) {
	if len(data) < unix.SizeofRtMsg {
		return routeKey{}, flavor{}, false
	}
	rtm := nl.DeserializeRtMsg(data)
	attrs, err := nl.ParseRouteAttr(data[unix.SizeofRtMsg:])
	if err != nil {
		return routeKey{}, flavor{}, false
	}
	table := int(rtm.Table)
	dst := netip.PrefixFrom(netip.IPv6Unspecified(), int(rtm.Dst_len))
	var encap []byte
	isSeg6Local := false
	for _, a := range attrs {
		switch a.Attr.Type & nlaTypeMask {
		case unix.RTA_TABLE:
			table = int(binary.NativeEndian.Uint32(a.Value))
		case unix.RTA_DST:
			if ip, ok := netip.AddrFromSlice(a.Value); ok {
				dst = netip.PrefixFrom(ip, int(rtm.Dst_len))
			}
		case unix.RTA_ENCAP_TYPE:
			isSeg6Local = binary.NativeEndian.Uint16(a.Value) == nl.LWTUNNEL_ENCAP_SEG6_LOCAL
		case unix.RTA_ENCAP:
			encap = a.Value
		}
	}
	if !isSeg6Local || encap == nil {
		return routeKey{}, flavor{}, false
	}
	inner, err := nl.ParseRouteAttr(encap)
	if err != nil {
		return routeKey{}, flavor{}, false
	}
	for _, a := range inner {
		if a.Attr.Type&nlaTypeMask != seg6LocalFlavors {
			continue
		}
		flv, err := nl.ParseRouteAttr(a.Value)
		if err != nil {
			return routeKey{}, flavor{}, false
		}
		var f flavor
		for _, x := range flv {
			switch x.Attr.Type & nlaTypeMask {
			case seg6LocalFlvOperation:
				f.nextCSID = binary.NativeEndian.Uint32(x.Value)&(1<<seg6LocalFlvOpNextCSID) != 0
			case seg6LocalFlvLcBlockBit:
				f.lblen = int(x.Value[0])
			case seg6LocalFlvLcNodeBits:
				f.nflen = int(x.Value[0])
			}
		}
		return routeKey{table: table, dst: dst.Masked()}, f, true
	}
	return routeKey{}, flavor{}, false
}
