package com.chatreview.web;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * HTTP conventions shared by every endpoint.
 *
 * @param maxJsonBody the largest JSON (or other non-multipart) request body accepted; larger is 413
 * @param trustedProxies the proxies (addresses, CIDR blocks such as {@code 10.0.0.0/8}, or ranges) whose
 *     {@code X-Forwarded-For} and {@code Forwarded} headers name the client; empty: nobody's are believed
 */
@ConfigurationProperties("web")
public record WebSettings(@DefaultValue("1MB") DataSize maxJsonBody, List<String> trustedProxies) {

    public WebSettings {
        trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
    }
}
