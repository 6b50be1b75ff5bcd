package com.chatreview.review;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reviews never take more than half the database pool, so that requests always find a connection. */
class ReviewWorkersTests {

    @Test
    void asConfiguredUpToHalfThePoolAndAlwaysAtLeastOne() {
        assertThat(ReviewJobs.workers(4, 10)).isEqualTo(4);
        assertThat(ReviewJobs.workers(16, 10)).isEqualTo(5);
        assertThat(ReviewJobs.workers(16, 32)).isEqualTo(16);
        assertThat(ReviewJobs.workers(4, 1)).isEqualTo(1);
    }
}
