package com.chatreview.lti.grades;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.keys.PlatformHttp;
import java.time.Duration;
import org.eclipse.jetty.http.HttpFields;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Where a line item's scores are posted (its URL with {@code /scores} after the path, before any query), and how long
 * a platform that asks to be left alone ({@code Retry-After}) is: the seconds it names, at most an hour.
 */
class ScoreDeliveryTests {

    @Test
    void aPlatformsRetryAfterIsTakenInSecondsAndAtMostAnHour() {
        assertThat(ScoreDelivery.retryAfter(answer("120"))).isEqualTo(Duration.ofSeconds(120));
        assertThat(ScoreDelivery.retryAfter(answer(" 7 "))).isEqualTo(Duration.ofSeconds(7));
        assertThat(ScoreDelivery.retryAfter(answer("3600"))).isEqualTo(Duration.ofHours(1));
        assertThat(ScoreDelivery.retryAfter(answer("3601"))).isEqualTo(Duration.ofHours(1));
        assertThat(ScoreDelivery.retryAfter(answer("999999999999"))).isEqualTo(Duration.ofHours(1));
        // what it cannot read as seconds asks for no wait beyond the service's own backoff
        assertThat(ScoreDelivery.retryAfter(answer(null))).isZero();
        assertThat(ScoreDelivery.retryAfter(answer("-5"))).isZero();
        assertThat(ScoreDelivery.retryAfter(answer("Wed, 21 Oct 2026 07:28:00 GMT")))
                .isZero();
        assertThat(ScoreDelivery.retryAfter(answer("99999999999999999999"))).isZero();
    }

    private static PlatformHttp.Answer answer(@Nullable String retryAfter) {
        HttpFields.Mutable headers = HttpFields.build();
        if (retryAfter != null) {
            headers.put("Retry-After", retryAfter);
        }
        return new PlatformHttp.Answer(429, "slow down", headers);
    }

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
