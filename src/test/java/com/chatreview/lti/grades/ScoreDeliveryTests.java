package com.chatreview.lti.grades;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Where a line item's scores are posted: its URL with {@code /scores} after the path, before any query.
 */
class ScoreDeliveryTests {

    @Test
    void scoresGoAfterThePathAndBeforeTheQuery() {
        assertThat(ScoreDelivery.scoresUrl("https://lms.example/mod/lti/services.php/2/lineitems/7/lineitem?type_id=3"))
                .hasToString("https://lms.example/mod/lti/services.php/2/lineitems/7/lineitem/scores?type_id=3");
        assertThat(ScoreDelivery.scoresUrl("https://canvas.example/api/lti/courses/1/line_items/5/"))
                .hasToString("https://canvas.example/api/lti/courses/1/line_items/5/scores");
        assertThat(ScoreDelivery.scoresUrl("http://127.0.0.1:8081/lineitems/9?a=b%20c&d"))
                .hasToString("http://127.0.0.1:8081/lineitems/9/scores?a=b%20c&d");
    }
}
