package com.chatreview.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * HTTP conventions shared by every endpoint.
 *
 * @param maxJsonBody the largest JSON (or other non-multipart) request body accepted; larger is 413
 */
@ConfigurationProperties("web")
public record WebSettings(@DefaultValue("1MB") DataSize maxJsonBody) {}
