module consumer {
    requires io.github.sm3ffm;

    uses java.security.Provider;
}
