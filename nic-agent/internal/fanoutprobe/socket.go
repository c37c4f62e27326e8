package fanoutprobe

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"time"

	"golang.org/x/sys/unix"
)

// dialTimestamped opens a blocking TCP connection to addr with TCP_NODELAY and SO_TIMESTAMPNS: from
// then on every recvmsg on it carries the kernel's receive time of the last segment it returns
// (stamped when the segment entered the host's network stack; on loopback during the sender's
// write), before any time the reading thread waited for a core.
func dialTimestamped(addr netip.AddrPort) (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	for _, o := range []struct{ level, name int }{{unix.SOL_SOCKET, unix.SO_TIMESTAMPNS},
		{unix.IPPROTO_TCP, unix.TCP_NODELAY}} {
		if err := unix.SetsockoptInt(fd, o.level, o.name, 1); err != nil {
			unix.Close(fd)
			return -1, fmt.Errorf("setsockopt %d: %w", o.name, err)
		}
	}
	sa := &unix.SockaddrInet4{Port: int(addr.Port()), Addr: addr.Addr().As4()}
	if err := unix.Connect(fd, sa); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("connect %s: %w", addr, err)
	}
	return fd, nil
}

// writeAll writes b on a socket, waiting while it cannot take more (requests are small: once).
func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(fd, b)
		if err == unix.EAGAIN || err == unix.EINTR {
			time.Sleep(time.Millisecond)
			continue
		}
		if err != nil {
			return fmt.Errorf("write: %w", err)
		}
		b = b[n:]
	}
	return nil
}

// Read is one recvmsg: the bytes, the kernel's receive time (epoch ns, 0 when the kernel gave none)
// and the time the call returned (epoch ns).
type Read struct {
	N        int
	KernelNs int64
	ReadNs   int64
}

// readStamped does one recvmsg into buf, reading the SCM_TIMESTAMPNS control message.
func readStamped(fd int, buf, oob []byte) (Read, error) {
	n, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_DONTWAIT)
	r := Read{N: n, ReadNs: time.Now().UnixNano()}
	if err != nil {
		return r, err
	}
	r.KernelNs = kernelTime(oob[:oobn])
	return r, nil
}

// kernelTime finds the receive time in recvmsg's control messages: SCM_TIMESTAMPNS (a struct
// timespec, 64-bit fields on the 64-bit Linux the bench runs on) or its y2038-safe twin
// SO_TIMESTAMPNS_NEW (struct __kernel_timespec).
func kernelTime(oob []byte) int64 {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return 0
	}
	for _, m := range msgs {
		if m.Header.Level == unix.SOL_SOCKET && (m.Header.Type == unix.SCM_TIMESTAMPNS ||
			m.Header.Type == unix.SO_TIMESTAMPNS_NEW) && len(m.Data) >= 16 {
			sec := int64(binary.NativeEndian.Uint64(m.Data[0:8]))
			nsec := int64(binary.NativeEndian.Uint64(m.Data[8:16]))
			return sec*1e9 + nsec
		}
	}
	return 0
}

// oobSize holds one timestamp control message.
var oobSize = unix.CmsgSpace(16)
