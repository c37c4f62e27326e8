package io.weft.scheduler.apibench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** How the bench splits a round's samples: the agents' loopback receive, the send, the JVM's own. */
class ServiceProfileTest {

    @Test
    void splitsReceiveSendAndJvmSamplesAndLeavesTheJitOut() {
        String write = "[weft-fanout-1 tid=7];io/weft/scheduler/agent/StreamFastPath$Stream.write;__GI_write;"
                + "entry_SYSCALL_64_after_hwframe_[k];tcp_sendmsg_[k];";
        ServiceProfile.Split s = ServiceProfile.split(List.of(
                write + "__local_bh_enable_ip_[k];net_rx_action_[k];process_backlog_[k];tcp_v4_rcv_[k] 30",
                write + "tcp_write_xmit_[k] 40",
                "[weft-fanout-2 tid=8];io/weft/scheduler/agent/StreamFastPath.fanOut 20",
                "[qtp1-12 tid=9];org/eclipse/jetty/Foo.bar;entry_SYSCALL_64_after_hwframe_[k];tcp_v4_rcv_[k] 6",
                "[qtp1-12 tid=9];org/eclipse/jetty/Foo.bar 4",
                "[C2 CompilerThre tid=3];Compile::Code_Gen 500"));
        assertThat(s.samples()).isEqualTo(100);
        assertThat(s.receive()).isEqualTo(36);
        assertThat(s.send()).isEqualTo(40);
        assertThat(s.fanout()).isEqualTo(90);
        assertThat(s.fanoutReceive()).isEqualTo(30);
        assertThat(s.fanoutSend()).isEqualTo(40);
        assertThat(s.receiveShare()).isEqualTo(0.36);
        assertThat(ServiceProfile.Split.NONE.receiveShare()).isNaN();
    }
}
