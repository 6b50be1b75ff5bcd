package com.chatreview.web;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ForwardedRequestCustomizer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.InetAddressSet;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.stereotype.Component;

/**
 * The client's address (and scheme, host) as a proxy forwards them ({@code X-Forwarded-For}, {@code Forwarded},
 * {@code X-Forwarded-Proto}, {@code X-Forwarded-Host}) is believed only when the connection comes from one of the
 * trusted proxies ({@code TRUSTED_PROXIES}); from anyone else those headers are ignored, so that a client cannot
 * choose the address its failed keys are counted against. Jetty's own customizer reads the headers; this one
 * decides whether it may. A trusted proxy must set {@code X-Forwarded-For} to the address it was connected from,
 * not append to what the client sent (the first address is taken), as {@code deploy/}'s nginx does.
 */
@Component
class TrustedProxies implements JettyServerCustomizer {

    private final InetAddressSet trusted = new InetAddressSet();
    private final boolean any;

    TrustedProxies(WebSettings settings) {
        settings.trustedProxies().stream()
                .map(String::trim)
                .filter(proxy -> !proxy.isEmpty())
                .forEach(trusted::add);
        this.any = !trusted.isEmpty();
    }

    @Override
    public void customize(Server server) {
        if (!any) {
            return;
        }
        for (Connector connector : server.getConnectors()) {
            HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
            if (http != null) {
                http.getHttpConfiguration().addCustomizer(new FromTrustedProxiesOnly(trusted));
            }
        }
    }

    /** Jetty's forwarded-headers customizer, applied to the requests of trusted proxies' connections only. */
    static final class FromTrustedProxiesOnly implements HttpConfiguration.Customizer {

        private final ForwardedRequestCustomizer forwarded = new ForwardedRequestCustomizer();
        private final InetAddressSet trusted;

        FromTrustedProxiesOnly(InetAddressSet trusted) {
            this.trusted = trusted;
        }

        @Override
        public Request customize(Request request, HttpFields.Mutable responseHeaders) {
            SocketAddress peer = request.getConnectionMetaData().getRemoteSocketAddress();
            if (peer instanceof InetSocketAddress address
                    && address.getAddress() != null
                    && trusted.test(address.getAddress())) {
                return forwarded.customize(request, responseHeaders);
            }
            return request;
        }
    }
}
