"""Extractors: a registry of named, versioned extractors, the accept guard and the runner."""
