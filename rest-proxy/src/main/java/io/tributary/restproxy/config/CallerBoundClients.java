package io.tributary.restproxy.config;

import io.tributary.restproxy.security.KafkaLogin;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;

/**
 * A {@link Producer} and an {@link Admin} that are not clients themselves but stand for "the
 * current caller's client": every call asks {@code login} who the caller is and runs on that
 * login's client from the {@link KafkaClientPool}.
 *
 * <p>Why proxies: about a dozen services already take a {@code Producer<byte[], byte[]>} or an
 * {@code Admin} by constructor injection and call them on the request thread. Binding the
 * identity at call time keeps all of them unchanged, and the {@link java.lang.reflect.Proxy}
 * follows every method of Kafka's interfaces, present and future, without a hand-written
 * delegate to keep in step. The price is that the identity is resolved on the calling thread:
 * code that calls these from another thread must not (it gets an exception from
 * {@link io.tributary.restproxy.security.Callers#current()}, never another identity); such work
 * captures the login on the request thread and uses the pool, or a consumer made for that login.
 *
 * <p>{@code close()} on a proxy does nothing: the pool owns the clients. A producer the brokers
 * refused is retired (closed once unused; the next request gets a fresh one): after a send refused
 * for cluster or transactional-id authorization, since Kafka's producer stays in that fatal state
 * and an ACL granted later would never take effect; and after {@code partitionsFor} was refused a
 * topic, since an idempotent producer whose user may write nowhere keeps asking the brokers for a
 * producer id, thousands of requests a second (kafka-clients 4.4), for as long as it is open.
 */
public final class CallerBoundClients {

    private CallerBoundClients() {
    }

    /** A producer that sends as {@code login.get()}. */
    @SuppressWarnings("unchecked")
    public static Producer<byte[], byte[]> producer(KafkaClientPool pool, Supplier<KafkaLogin> login) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object own = objectMethod(proxy, method, args, "caller-bound Producer");
            if (own != NOT_HANDLED) {
                return own;
            }
            KafkaLogin caller = login.get();
            Object[] arguments = retiringCallbacks(pool, caller, method, args);
            try {
                return pool.withProducer(caller, producer -> invoke(producer, method, arguments));
            } catch (AuthorizationException e) {
                pool.retire(caller);
                throw e;
            } catch (KafkaException e) {
                // A producer refused a producer id before this call (its sender asks for one as soon as it
                // starts) throws "Cannot execute transactional method because we are in an error state",
                // with the refusal as the cause: the caller is answered with the refusal itself.
                AuthorizationException refusal = cause(e, AuthorizationException.class);
                if (refusal == null) {
                    throw e;
                }
                pool.retire(caller);
                throw refusal;
            }
        };
        return (Producer<byte[], byte[]>) Proxy.newProxyInstance(Producer.class.getClassLoader(),
            new Class<?>[] {Producer.class}, handler);
    }

    /** An Admin client that calls as {@code login.get()}. */
    public static Admin admin(KafkaClientPool pool, Supplier<KafkaLogin> login) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object own = objectMethod(proxy, method, args, "caller-bound Admin");
            if (own != NOT_HANDLED) {
                return own;
            }
            return pool.withAdmin(login.get(), admin -> invoke(admin, method, args));
        };
        return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, handler);
    }

    private static final Object NOT_HANDLED = new Object();

    /** Answers close, equals, hashCode and toString on the proxy itself. */
    private static Object objectMethod(Object proxy, Method method, Object[] args, String name) {
        return switch (method.getName()) {
            case "close" -> null;
            case "equals" -> method.getParameterCount() == 1 ? proxy == args[0] : NOT_HANDLED;
            case "hashCode" -> method.getParameterCount() == 0 ? System.identityHashCode(proxy) : NOT_HANDLED;
            case "toString" -> method.getParameterCount() == 0 ? name : NOT_HANDLED;
            default -> NOT_HANDLED;
        };
    }

    /** {@code send(record, callback)} with a callback that also retires the login's clients on a fatal refusal. */
    private static Object[] retiringCallbacks(KafkaClientPool pool, KafkaLogin login, Method method, Object[] args) {
        if (!method.getName().equals("send") || args == null) {
            return args;
        }
        Object[] copy = args.clone();
        for (int i = 0; i < copy.length; i++) {
            if (method.getParameterTypes()[i] == Callback.class) {
                Callback callback = (Callback) copy[i];
                copy[i] = (Callback) (metadata, exception) -> {
                    if (cause(exception, ClusterAuthorizationException.class) != null
                            || cause(exception, TransactionalIdAuthorizationException.class) != null) {
                        pool.retire(login);
                    }
                    if (callback != null) {
                        callback.onCompletion(metadata, exception);
                    }
                };
            }
        }
        return copy;
    }

    /** {@code thrown} or the first of its causes that is a {@code type}; null if none is. */
    public static <T extends Throwable> T cause(Throwable thrown, Class<T> type) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static Object invoke(Object target, Method method, Object[] args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot call " + method, e);
        }
    }
}
