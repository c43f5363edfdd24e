/**
 * SM3 (GB/T 32905-2016) for the JCA, computed by the system's OpenSSL 3 libcrypto through the FFM API.
 * The only public type is the provider, {@link io.github.sm3ffm.SM3Provider}.
 */
module io.github.sm3ffm {
    exports io.github.sm3ffm;

    provides java.security.Provider with io.github.sm3ffm.SM3Provider;
}
