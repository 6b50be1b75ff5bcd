package com.chatreview.sandbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class SandboxConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SandboxConfiguration.class);

    @Bean
    Sandbox sandbox(SandboxSettings settings) {
        return new Sandbox(settings.dir(), Math.max(1, settings.concurrency()));
    }

    /** Says at start, plainly, whether homework tests can run on this node, and why not. */
    @Bean
    ApplicationRunner sandboxCheck(Sandbox sandbox, SandboxSettings settings) {
        return arguments -> Thread.ofVirtual().name("sandbox-check").start(() -> {
            if (settings.mode() == SandboxSettings.Mode.OFF) {
                log.info("Homework tests are off (REVIEW_TESTS=off): reviews say the tests were not run");
                return;
            }
            String why = sandbox.whyUnavailable();
            if (why == null) {
                log.info("Homework tests run in a sandbox (bubblewrap)");
            } else {
                log.warn("Homework tests cannot run on this node, and never run outside the sandbox: {}", why);
            }
        });
    }
}
