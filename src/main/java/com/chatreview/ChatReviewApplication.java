package com.chatreview;

import java.time.Clock;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.EnableScheduling;

@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class ChatReviewApplication {

    /**
     * The clock of stored timestamps, embed tokens, the idle sweep and review scheduling. The WebSocket timing inside
     * a connection (its last frame, a token's remaining time) and webhook deliveries still read the system clock.
     */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * The one line that says the service is up, and where: a script waits for it (README). Nothing else prints it,
     * bin/run's own messages included. Printed when the service starts accepting traffic (after the ready event),
     * so that its readiness probe says UP by then.
     */
    @EventListener
    void ready(AvailabilityChangeEvent<ReadinessState> change) {
        if (change.getState() == ReadinessState.ACCEPTING_TRAFFIC
                && change.getSource() instanceof ApplicationContext context) {
            String port = context.getEnvironment().getProperty("local.server.port", "8080");
            LoggerFactory.getLogger(ChatReviewApplication.class)
                    .info("Chat review service ready at http://localhost:{}/", port);
        }
    }

    public static void main(String[] args) {
        SpringApplication.run(ChatReviewApplication.class, args);
    }
}
