package io.github.timerqueue.runtime;

/** {@link Ticker#systemTicker()}: an enum so that it is one instance and has a readable name. */
enum SystemTicker implements Ticker {
  INSTANCE;

  @Override
  public long read() {
    return System.nanoTime();
  }
}
