package io.weft.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BearerCheckTest {
    private static final TokenStore TOKENS = TokenStore.of(
            "ops:operator=op-secret-0123456789;sched:scheduler=sc-secret-0123456789", null);
    /** Writes need an operator; reads any token. */
    private static final BearerCheck CHECK = new BearerCheck(TOKENS, (method, path, caller) ->
            BearerCheck.isRead(method) || caller.scope() == Scope.OPERATOR ? null
                    : BearerCheck.refuse(caller, "operator"));

    @Test
    void missingOrMalformedHeaderIs401AskingForABearer() {
        for (String header : new String[] {null, "", "Basic b3BzOnNlY3JldA==", "Bearer"}) {
            BearerCheck.Decision d = CHECK.check("PUT", "/links/l1/state", header);
            assertThat(d.status()).as(String.valueOf(header)).isEqualTo(401);
            assertThat(d.wwwAuthenticate()).isEqualTo("Bearer");
        }
    }

    @Test
    void unknownTokenIs401InvalidTokenAndNotEchoed() {
        BearerCheck.Decision d = CHECK.check("PUT", "/x", "Bearer op-secret-012345678X");
        assertThat(d.status()).isEqualTo(401);
        assertThat(d.wwwAuthenticate()).contains("invalid_token");
        assertThat(d.message()).doesNotContain("op-secret");
    }

    @Test
    void wrongScopeIs403NamingTheTokenNotItsValue() {
        BearerCheck.Decision d = CHECK.check("PUT", "/x", "Bearer sc-secret-0123456789");
        assertThat(d.status()).isEqualTo(403);
        assertThat(d.message()).isEqualTo("token 'sched' has scope scheduler; this needs operator");
    }

    @Test
    void rightTokenIsAllowedWithItsCaller() {
        BearerCheck.Decision d = CHECK.check("PUT", "/x", "bearer  op-secret-0123456789 ");
        assertThat(d.allowed()).isTrue();
        assertThat(d.caller().name()).isEqualTo("ops");
        assertThat(CHECK.check("GET", "/x", "Bearer sc-secret-0123456789").allowed()).isTrue();
    }

    @Test
    void emptyStoreRefusesEveryone() {
        BearerCheck none = new BearerCheck(TokenStore.empty(), (m, p, c) -> null);
        assertThat(none.check("GET", "/x", "Bearer op-secret-0123456789").status()).isEqualTo(401);
    }

    @Test
    void readAccessParses() {
        assertThat(ReadAccess.parse(" Open ")).isEqualTo(ReadAccess.OPEN);
        assertThat(ReadAccess.parse("token")).isEqualTo(ReadAccess.TOKEN);
        assertThatThrownBy(() -> ReadAccess.parse("public")).hasMessageContaining("reads: must be open or token");
    }
}
