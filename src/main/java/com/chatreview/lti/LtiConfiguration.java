package com.chatreview.lti;

import com.chatreview.chatui.ChatUi;
import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.idempotency.IdempotentRequests;
import com.chatreview.outbound.Destinations;
import com.chatreview.ratelimit.RateLimiter;
import com.chatreview.ratelimit.RequestQuotas;
import com.chatreview.redis.ConditionalOnRedis;
import com.chatreview.redis.Redis;
import com.chatreview.redis.RedisReachability;
import com.chatreview.sealing.Sealer;
import com.chatreview.submission.Agreements;
import com.chatreview.submission.Regrades;
import com.chatreview.submission.SubmissionManagement;
import com.chatreview.submission.SubmissionsForReview;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class LtiConfiguration {

    @Bean
    Platforms ltiPlatformTable(JdbcClient jdbc) {
        return new Platforms(jdbc);
    }

    @Bean
    LtiPlatforms ltiPlatforms(
            Platforms platforms, LtiSettings settings, TransactionTemplate transactions, Clock clock) {
        // a Destinations of the module's own (not a bean: the webhook module has its own policy)
        return new LtiPlatforms(
                platforms, new Destinations(settings.destinationPolicy()), settings, transactions, clock);
    }

    @Bean
    LtiRegistrations ltiRegistrations(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            LtiPlatforms platforms,
            PlatformHttp http,
            LtiSettings settings,
            JsonMapper json,
            Clock clock) {
        return new LtiRegistrations(
                jdbc, transactions, platforms, http, new Destinations(settings.destinationPolicy()), json, clock);
    }

    @Bean
    ToolKeys ltiToolKeys(
            JdbcClient jdbc, TransactionTemplate transactions, Sealer sealer, LtiSettings settings, Clock clock) {
        return new ToolKeys(jdbc, transactions, sealer, settings, clock);
    }

    @Bean(destroyMethod = "close")
    PlatformHttp ltiPlatformHttp(LtiSettings settings) {
        return new PlatformHttp(new Destinations(settings.destinationPolicy()), settings.platformTimeout());
    }

    @Bean
    PlatformKeys ltiPlatformKeys(PlatformHttp http, LtiSettings settings) {
        return new PlatformKeys(http, settings.platformKeysCache(), settings.platformKeysRefreshLimit());
    }

    @Bean
    @ConditionalOnRedis.Absent
    LoginStates ltiLoginStates(LtiSettings settings) {
        return new InProcessLoginStates(settings.loginTimeout(), settings.pendingLogins());
    }

    @Bean
    @ConditionalOnRedis
    LoginStates redisLtiLoginStates(Redis redis, RedisReachability reachability, JsonMapper json) {
        return new RedisLoginStates(redis, reachability, json);
    }

    @Bean
    LtiSessions ltiSessions(JdbcClient jdbc, JsonMapper json, LtiSettings settings, Clock clock) {
        return new LtiSessions(jdbc, json, settings.sessionLifetime(), clock);
    }

    @Bean
    LtiDeepLinking ltiDeepLinking(
            HomeworkCatalog homework,
            ToolKeys keys,
            LtiSessions sessions,
            TransactionTemplate transaction,
            Clock clock) {
        return new LtiDeepLinking(homework, keys, sessions, transaction, clock);
    }

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

    @Bean
    PlatformTokens ltiPlatformTokens(PlatformHttp http, ToolKeys keys, JsonMapper json, Clock clock) {
        return new PlatformTokens(http, keys, json, clock);
    }

    @Bean
    ScoreDelivery ltiScoreDelivery(
            JdbcClient jdbc, Platforms platforms, PlatformTokens tokens, PlatformHttp http, LtiSettings settings) {
        return new ScoreDelivery(jdbc, platforms, tokens, http, settings);
    }

    @Bean
    LtiScores ltiScores(JdbcClient jdbc, Platforms platforms, ScoreDelivery delivery) {
        return new LtiScores(jdbc, platforms, delivery::wake);
    }

    @Bean
    LinkLineItems ltiLinkLineItems(JdbcClient jdbc, PlatformTokens tokens, PlatformHttp http, JsonMapper json) {
        return new LinkLineItems(jdbc, tokens, http, json);
    }

    @Bean
    GradePassback ltiGradePassback(
            JdbcClient jdbc,
            SubmissionsForReview submissions,
            HomeworkCatalog homework,
            LinkLineItems lineItems,
            JsonMapper json,
            ScoreDelivery delivery,
            Clock clock) {
        return new GradePassback(jdbc, submissions, homework, lineItems, json, delivery::wake, clock);
    }

    @Bean
    LtiAdmission ltiAdmission(RateLimiter limiter, RequestQuotas quotas, LtiSettings settings) {
        return new LtiAdmission(limiter, quotas, settings);
    }

    @Bean
    LtiLaunches ltiLaunches(
            Platforms platforms, PlatformKeys keys, LoginStates logins, LtiSettings settings, Clock clock) {
        return new LtiLaunches(platforms, keys, logins, settings, clock);
    }
}
