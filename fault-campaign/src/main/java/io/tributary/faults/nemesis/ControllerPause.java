package io.tributary.faults.nemesis;

import java.util.Random;

/** Pauses the controller longer than its ZooKeeper session: another broker becomes controller while it sleeps. */
public final class ControllerPause extends PauseNemesis {

    @Override
    public String kind() {
        return "pause-controller";
    }

    @Override
    protected Target target(NemesisContext context, Random random) {
        int controller = context.controller();
        return new Target(context.cluster().broker(controller).process(), "broker " + controller + " (controller)");
    }
}
