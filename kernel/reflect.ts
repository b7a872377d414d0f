/**
 * Installs the Reflect metadata polyfill that tsyringe's decorators need. It is an ES module of its own
 * so that, imported first, it runs before tsyringe even when a bundler inlines everything.
 */
import "reflect-metadata";
