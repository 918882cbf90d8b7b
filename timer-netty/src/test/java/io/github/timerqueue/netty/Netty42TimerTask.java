package io.github.timerqueue.netty;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;

/**
 * Netty 4.2's {@code TimerTask}, as far as its {@code cancelled} callback goes, for tests that run
 * on 4.1. Public, as Netty's interface is: the adapter looks the method up with the public lookup.
 */
public interface Netty42TimerTask extends TimerTask {
  /**
   * As Netty 4.2's: called when {@code cancel()} cancelled the timeout.
   *
   * @param timeout the cancelled timeout
   */
  default void cancelled(Timeout timeout) {}
}
