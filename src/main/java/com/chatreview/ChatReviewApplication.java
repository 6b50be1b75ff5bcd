package com.chatreview;

import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;
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

    public static void main(String[] args) {
        SpringApplication.run(ChatReviewApplication.class, args);
    }
}
