package io.github.timerqueue.conformance;

import io.github.timerqueue.TimerQueue;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Finds the timer strategies that {@link ServiceLoader} sees on the <em>module path</em>, through
 * the {@code provides} clauses of the modules' {@code module-info}, not through {@code
 * META-INF/services}. The tests themselves run on the class path; a strategy module calls this to
 * show that it is also registered as a JPMS service.
 */
public final class ModulePathProviders {

  private ModulePathProviders() {}

  /**
   * Returns the names of the strategies provided by the API module and by the modules whose
   * compiled classes or jars contain the given classes, resolved in a fresh module layer.
   *
   * @param providerClasses one class from each strategy module to put on the module path
   * @return the strategy names found, sorted
   * @throws Exception if the modules cannot be resolved or a provider cannot be instantiated
   */
  public static SortedSet<String> names(Class<?>... providerClasses) throws Exception {
    List<Path> modulePath = new ArrayList<>();
    modulePath.add(locationOf(TimerQueue.class));
    List<String> roots = new ArrayList<>();
    roots.add(TimerQueue.class.getModule().isNamed()
        ? TimerQueue.class.getModule().getName() : "io.github.timerqueue");
    for (Class<?> providerClass : providerClasses) {
      Path location = locationOf(providerClass);
      modulePath.add(location);
      ModuleFinder.of(location).findAll()
          .forEach(reference -> roots.add(reference.descriptor().name()));
    }
    ModuleFinder finder = ModuleFinder.of(modulePath.toArray(new Path[0]));
    ModuleLayer parent = ModuleLayer.boot();
    Configuration configuration =
        parent.configuration().resolveAndBind(finder, ModuleFinder.of(), Set.copyOf(roots));
    ModuleLayer layer =
        parent.defineModulesWithOneLoader(configuration, ClassLoader.getSystemClassLoader());
    ClassLoader loader = layer.findLoader("io.github.timerqueue");
    Class<?> service = loader.loadClass("io.github.timerqueue.spi.TimerQueueProvider");
    SortedSet<String> names = new TreeSet<>();
    for (Object provider : ServiceLoader.load(layer, service)) {
      names.add((String) service.getMethod("name").invoke(provider));
    }
    return names;
  }

  private static Path locationOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
