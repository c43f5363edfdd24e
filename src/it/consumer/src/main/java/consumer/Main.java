package consumer;

import io.github.sm3ffm.SM3Provider;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.HexFormat;
import java.util.ServiceLoader;

public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Provider found = ServiceLoader.load(Provider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.getName().equals(SM3Provider.NAME)).findFirst()
                .orElseThrow(() -> new AssertionError("ServiceLoader did not find SM3FFM"));
        Security.addProvider(found);
        MessageDigest md = MessageDigest.getInstance("SM3");
        String hex = HexFormat.of().formatHex(md.digest("abc".getBytes("US-ASCII")));
        System.out.println("consumer: provider=" + md.getProvider().getName()
                + " module=" + found.getClass().getModule().getName()
                + " native-access=" + found.getClass().getModule().isNativeAccessEnabled());
        System.out.println("consumer: SM3(abc)=" + hex);
        if (!hex.equals("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0")) {
            throw new AssertionError("wrong SM3(abc): " + hex);
        }
    }
}
