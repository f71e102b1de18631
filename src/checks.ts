/**
 * What a config value must be, one check per kind of option: each returns the
 * value as the config keeps it, or throws the error a person reads at load,
 * naming the option, the rule and the value.
 */
import Schema from '@deepseek-ai/schemastery'
import { name } from './name.ts'
import { Problem } from './problem.ts'
import { show } from './quote.ts'

/** Throw the error a person reads at load: the plugin, the rule broken and the value that broke it. */
export function reject(rule: string, value: unknown): never {
  throw new Problem(`${rule} (got ${show(value)})`, [name])
}

/** An option's schema: its check, its default and its description. */
export function field<T>(rule: (value: unknown) => T, fallback: T, description: string) {
  return Schema.transform(Schema.any(), rule).default(fallback).description(description)
}

export function thresholdList(key: string) {
  return (value: unknown): number[] => {
    if (!Array.isArray(value) || value.length === 0) reject(`${key} must be a non-empty list of integers >= 2`, value)
    for (const threshold of value) {
      if (!Number.isInteger(threshold) || threshold < 2) reject(`${key} must be integers >= 2`, threshold)
    }
    const sorted = [...(value as number[])].sort((a, b) => a - b)
    sorted.forEach((threshold, i) => {
      if (threshold === sorted[i - 1]) reject(`${key} must not repeat a value`, threshold)
    })
    return sorted
  }
}

export function integerIn(key: string, min: number, max: number, rule: string) {
  return (value: unknown): number =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? (value as number)
      : reject(`${key} must be ${rule}`, value)
}

export function bool(key: string) {
  return (value: unknown): boolean =>
    typeof value === 'boolean' ? value : reject(`${key} must be true or false`, value)
}

export function patternList(key: string) {
  return (value: unknown): string[] => {
    if (!Array.isArray(value) || !value.every((pattern) => typeof pattern === 'string')) {
      reject(`${key} must be a list of tool-name patterns (strings)`, value)
    }
    return [...(value as string[])]
  }
}

export function boolOrPatterns(key: string) {
  const patterns = patternList(key)
  return (value: unknown): boolean | string[] => {
    if (typeof value === 'boolean') return value
    if (!Array.isArray(value)) reject(`${key} must be true, false or a list of tool-name patterns (strings)`, value)
    return patterns(value)
  }
}

export function argumentList(key: string) {
  return (value: unknown): string[] => {
    if (!Array.isArray(value)) reject(`${key} must be a list of <tool pattern>.<argument> entries`, value)
    for (const entry of value) {
      if (typeof entry !== 'string') reject(`${key} entries must be strings like "bash.description"`, entry)
      const dot = entry.lastIndexOf('.')
      if (dot < 0) reject(`${key} entries must be <tool pattern>.<argument>, with a dot before the argument`, entry)
      if (dot === 0) reject(`${key} entries need a tool pattern before the dot (* for every tool)`, entry)
      if (dot === entry.length - 1) reject(`${key} entries need an argument name after the dot`, entry)
    }
    return [...(value as string[])]
  }
}
