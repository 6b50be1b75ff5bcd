package com.chatreview.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

/**
 * The whole service on a random port, over real sockets, on a real PostgreSQL (a server or the embedded one,
 * see {@link TestDatabase}). Every class carrying this annotation shares one running service. Its methods get the
 * service ({@link TestService}) or a fresh tenant ({@link TestTenant}) by naming them as parameters. Tagged
 * {@code service}: {@code bin/test quick} leaves these out.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("service")
@ExtendWith({RequiresDatabase.class, ServiceParameters.class})
// the tests' own connections come from 127.0.0.1, a trusted proxy: Api names a client address per test
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "web.trusted-proxies=127.0.0.1")
@ContextConfiguration(initializers = {TestRedis.Properties.class, SharedTestConfiguration.Properties.class})
@Import(SharedTestConfiguration.class)
public @interface IntegrationTest {}
