package com.chatreview.lti.course;

import com.chatreview.chatui.ChatUi;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.idempotency.IdempotentRequests;
import com.chatreview.lti.grades.GradePassback;
import com.chatreview.lti.launch.LtiSessions;
import com.chatreview.submission.Agreements;
import com.chatreview.submission.Regrades;
import com.chatreview.submission.SubmissionManagement;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class CourseConfiguration {

    @Bean
    LtiHomework ltiHomework(
            HomeworkCatalog homework,
            SubmissionManagement submissions,
            LtiSessions sessions,
            ChatUi chatUi,
            IdempotentRequests idempotent,
            GradePassback grades,
            JsonMapper json,
            LtiPeople people) {
        return new LtiHomework(homework, submissions, sessions, chatUi, idempotent, grades, json, people);
    }

    @Bean
    LtiPeople ltiPeople(JdbcClient jdbc, Clock clock) {
        return new LtiPeople(jdbc, clock);
    }

    @Bean
    LtiClass ltiClass(
            LtiHomework homework,
            SubmissionManagement submissions,
            Regrades regrades,
            Agreements agreements,
            LtiPeople people) {
        return new LtiClass(homework, submissions, regrades, agreements, people);
    }
}
