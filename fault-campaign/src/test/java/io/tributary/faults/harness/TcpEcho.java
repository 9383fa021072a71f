package io.tributary.faults.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A TCP server for connectivity checks: answers each connection with "hello from NAME\n" and closes it. */
public final class TcpEcho {

    private TcpEcho() {
    }

    public static void main(String[] args) throws IOException {
        String name = args[1];
        try (ServerSocket server = new ServerSocket(Integer.parseInt(args[0]), 50, InetAddress.getByName("0.0.0.0"))) {
            System.out.println("listening");
            while (true) {
                try (Socket socket = server.accept(); OutputStream out = socket.getOutputStream()) {
                    out.write(("hello from " + name + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }
}
