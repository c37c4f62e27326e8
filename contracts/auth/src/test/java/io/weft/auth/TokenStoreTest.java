package io.weft.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenStoreTest {

    @Test
    void inlineFormatGivesScopesAndNicBindings() {
        TokenStore s = TokenStore.of("ops:operator=op-secret-0123456789; a1:agent:nic1,nic2=ag-secret-0123456789;",
                null);
        assertThat(s.size()).isEqualTo(2);
        assertThat(s.lookup("op-secret-0123456789")).contains(new Caller("ops", Scope.OPERATOR, Set.of()));
        Caller a = s.lookup("ag-secret-0123456789").orElseThrow();
        assertThat(a.scope()).isEqualTo(Scope.AGENT);
        assertThat(a.mayActFor("nic2")).isTrue();
        assertThat(a.mayActFor("nic3")).isFalse();
        assertThat(s.lookup("ag-secret-012345678")).isEmpty();
        assertThat(s.lookup("")).isEmpty();
        assertThat(s.lookup(null)).isEmpty();
    }

    @Test
    void fileAndInlineMerge(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("tokens.json");
        Files.writeString(f, "{\"tokens\":[{\"name\":\"s1\",\"scope\":\"scheduler\",\"token\":"
                + "\"sc-secret-0123456789\"},"
                + "{\"name\":\"a9\",\"scope\":\"agent\",\"nics\":[\"nic9\"],\"token\":\"a9-secret-0123456789\"}]}");
        TokenStore s = TokenStore.of("ops:operator=op-secret-0123456789", f);
        assertThat(s.size()).isEqualTo(3);
        assertThat(s.lookup("a9-secret-0123456789").orElseThrow().nics()).containsExactly("nic9");
    }

    @Test
    void errorsNameTheEntryButNeverTheTokenValue() {
        assertThatThrownBy(() -> TokenStore.of("x:root=root-secret-0123456789", null))
                .hasMessageContaining("entry 1").hasMessageContaining("root").hasMessageNotContaining("root-secret");
        assertThatThrownBy(() -> TokenStore.of("a:agent=agent-secret-0123456789", null))
                .hasMessageContaining("must list its NIC ids").hasMessageNotContaining("agent-secret");
        assertThatThrownBy(() -> TokenStore.of("s:scheduler:nic1=sched-secret-0123456789", null))
                .hasMessageContaining("only agent tokens");
        assertThatThrownBy(() -> TokenStore.of("s:scheduler=short", null))
                .hasMessageContaining("at least 16").hasMessageNotContaining("short");
        assertThatThrownBy(() -> TokenStore.of("s:scheduler=same-secret-0123456789;t:operator=same-secret-0123456789",
                null)).hasMessageContaining("entry 2").hasMessageContaining("same token value")
                .hasMessageNotContaining("same-secret");
        assertThatThrownBy(() -> TokenStore.of("s:scheduler=aaaa-secret-0123456789;s:operator=bbbb-secret-0123456789",
                null)).hasMessageContaining("used twice");
        assertThatThrownBy(() -> TokenStore.of("no-equals-sign", null)).hasMessageContaining("name:scope");
    }

    @Test
    void badFileIsOneLineError(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("tokens.json");
        Files.writeString(f, "{\"tokens\": {}}");
        assertThatThrownBy(() -> TokenStore.of(null, f)).hasMessageContaining("$.tokens: must be an array");
        Files.writeString(f, "{not json");
        assertThatThrownBy(() -> TokenStore.of(null, f)).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> TokenStore.of(null, dir.resolve("missing.json"))).hasMessageContaining("cannot read");
    }
}
