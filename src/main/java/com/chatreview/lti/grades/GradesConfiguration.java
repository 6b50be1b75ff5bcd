package com.chatreview.lti.grades;

import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.lti.platforms.Platforms;
import com.chatreview.outbound.OutboxWorker;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class GradesConfiguration {

    @Bean
    OutboxWorker<ScoreDelivery.Due> ltiScoreWorker(ScoreDelivery delivery) {
        return delivery.worker();
    }

    @Bean
    LtiScores ltiScores(JdbcClient jdbc, Platforms platforms, OutboxWorker<ScoreDelivery.Due> worker) {
        return new LtiScores(jdbc, platforms, worker::wake);
    }

    @Bean
    GradePassback ltiGradePassback(
            JdbcClient jdbc,
            HomeworkCatalog homework,
            LinkLineItems lineItems,
            JsonMapper json,
            OutboxWorker<ScoreDelivery.Due> worker,
            Clock clock) {
        return new GradePassback(jdbc, homework, lineItems, json, worker::wake, clock);
    }
}
