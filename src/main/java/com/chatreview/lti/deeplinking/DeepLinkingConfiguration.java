package com.chatreview.lti.deeplinking;

import com.chatreview.homework.HomeworkCatalog;
import com.chatreview.lti.keys.ToolKeys;
import com.chatreview.lti.launch.LtiSessions;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

@Configuration(proxyBeanMethods = false)
class DeepLinkingConfiguration {

    @Bean
    LtiDeepLinking ltiDeepLinking(
            HomeworkCatalog homework,
            ToolKeys keys,
            LtiSessions sessions,
            TransactionTemplate transaction,
            Clock clock) {
        return new LtiDeepLinking(homework, keys, sessions, transaction, clock);
    }
}
