package com.chatreview.tenancy;

import com.chatreview.database.DatabaseSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * On the first start on the embedded database, with no tenant at all, creates the tenant {@code demo} and
 * prints its key once, so that the README's run command leads straight to a working call (docs/api.md, Authentication).
 */
@Component
class DemoTenant implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(DemoTenant.class);

    private final Tenancy tenancy;
    private final DatabaseSettings database;
    private final TenancySettings settings;
    private final Environment environment;

    DemoTenant(Tenancy tenancy, DatabaseSettings database, TenancySettings settings, Environment environment) {
        this.tenancy = tenancy;
        this.environment = environment;
        this.database = database;
        this.settings = settings;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!database.embedded() || !settings.demoTenant() || tenancy.anyTenant()) {
            return;
        }
        Tenancy.NewTenant demo = tenancy.createTenant("demo");
        String port = environment.getProperty("local.server.port", environment.getProperty("server.port", "8080"));
        // built as text, not with the logger's placeholders: the example must paste as it is printed
        log.info(banner(demo.apiKey(), port));
    }

    static String banner(String apiKey, String port) {
        return """

                ================================================================
                 Created the tenant 'demo'. Its API key, shown this once:

                   %1$s

                 Try: curl -H 'X-API-Key: %1$s' http://localhost:%2$s/api/v1/chats \\
                        -H 'Content-Type: application/json' -d '{"user_id":"student-1"}'
                ================================================================""".formatted(apiKey, port);
    }
}
