package com.chatreview.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PageRequestTests {

    @Test
    void absentValuesTakeTheDefaults() {
        assertThat(PageRequest.parse(null, null, null, 50, false)).isEqualTo(new PageRequest(0, 50, false));
        assertThat(PageRequest.parse(null, null, null, 10, true)).isEqualTo(new PageRequest(0, 10, true));
    }

    @Test
    void readsTheGivenValues() {
        assertThat(PageRequest.parse("5", "100", "asc", 50, false)).isEqualTo(new PageRequest(5, 100, true));
        assertThat(PageRequest.parse("0", "1", "desc", 50, true)).isEqualTo(new PageRequest(0, 1, false));
    }

    @Test
    void namesEveryWrongParameter() {
        assertThatThrownBy(() -> PageRequest.parse("-1", "101", "sideways", 50, true))
                .isInstanceOfSatisfying(
                        InvalidInput.class,
                        error -> assertThat(error.errors())
                                .extracting(FieldProblem::field)
                                .containsExactly("offset", "limit", "order"));
        assertThatThrownBy(() -> PageRequest.parse("1.5", "0", null, 50, true))
                .isInstanceOfSatisfying(
                        InvalidInput.class,
                        error -> assertThat(error.errors())
                                .extracting(FieldProblem::field)
                                .containsExactly("offset", "limit"));
        assertThatThrownBy(() -> PageRequest.parse("99999999999", null, null, 50, true))
                .isInstanceOf(InvalidInput.class);
    }

    @Test
    void hasMoreWhenItemsRemainAfterThePage() {
        PageRequest page = new PageRequest(10, 5, true);
        assertThat(page.hasMore(16, 5)).isTrue();
        assertThat(page.hasMore(15, 5)).isFalse();
        assertThat(page.hasMore(3, 0)).isFalse();
    }
}
