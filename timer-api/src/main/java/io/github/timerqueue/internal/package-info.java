/**
 * Plumbing that this project's strategies share and that is not API: exported only to the
 * strategy modules, and subject to change in any release.
 */
package io.github.timerqueue.internal;
