package com.chatreview.lti.grades;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A platform's access token goes to the URLs of the launch's claims, and besides them only to its line items
 * container's origin: the container's next pages and the line items found or made there.
 */
class LinkLineItemsTests {

    private static final String CONTAINER = "https://lms.school.example/mod/lti/services.php/2/lineitems?type_id=7";

    @Test
    void theSameSchemeHostAndPortAreTheContainersOrigin() {
        assertThat(LinkLineItems.sameOrigin(
                        CONTAINER, "https://lms.school.example/mod/lti/services.php/2/lineitems" + "?type_id=7&page=2"))
                .isTrue();
        assertThat(LinkLineItems.sameOrigin(CONTAINER, "https://LMS.school.example:443/lineitem/9"))
                .isTrue();
        assertThat(LinkLineItems.sameOrigin("http://127.0.0.1:8081/lineitems", "http://127.0.0.1:8081/li/1"))
                .isTrue();
    }

    @Test
    void anotherHostPortSchemeOrCredentialsAreNot() {
        assertThat(LinkLineItems.sameOrigin(CONTAINER, "https://attacker.example/lineitems?page=2"))
                .isFalse();
        assertThat(LinkLineItems.sameOrigin(CONTAINER, "https://lms.school.example.attacker.example/x"))
                .isFalse();
        assertThat(LinkLineItems.sameOrigin(CONTAINER, "https://lms.school.example:8443/x"))
                .isFalse();
        assertThat(LinkLineItems.sameOrigin(CONTAINER, "http://lms.school.example/x"))
                .isFalse();
        assertThat(LinkLineItems.sameOrigin(CONTAINER, "https://user@lms.school.example/x"))
                .isFalse();
        assertThat(LinkLineItems.sameOrigin(CONTAINER, "/relative/page")).isFalse();
        assertThat(LinkLineItems.sameOrigin(CONTAINER, "not a url")).isFalse();
    }
}
