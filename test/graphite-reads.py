#!/usr/bin/env python3
"""What graphite-web's own parser makes of Graphite targets: the reference for alertform's port of its grammar.

Reads one JSON string (a target) per line on stdin and prints one JSON object per line:
  {"error": "..."}                                   when graphite-web's grammar does not parse the target at all
  {"consumed": n, "tree": ..., "paths": [...], "tags": [[...]]}  otherwise, where
    consumed  how many characters (after tab expansion) the grammar took; graphite-web ignores the rest,
    tree      the parse as nested JSON (see to_tree),
    paths     every metric path graphite-web's evaluator would fetch: heads, call arguments, keyword values, pipes,
              with template() substitutions applied as graphite.render.evaluator does,
    tags      for each seriesByTag call, the tag expressions graphite.storage hands to the tag database.

With --functions it prints instead the names of graphite-web's render functions (one JSON list).

Uses the Debian package graphite-web (/usr/lib/python3/dist-packages/graphite), with its default settings.
"""
import json
import os
import sys
import warnings

sys.path.append('/usr/lib/python3/dist-packages')
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'graphite.settings')
warnings.simplefilter('ignore')

from graphite.render.grammar_unsafe import grammar  # noqa: E402  (graphite-web's grammar, as the evaluator uses it)
from graphite.render.evaluator import evaluateScalarTokens  # noqa: E402


def literal(tokens):
    if tokens.number:
        number = tokens.number
        # a scientific number also carries its mantissa and exponent under 'float' and 'integer': it comes first
        return {'number': number.scientific[0] if number.scientific else (number.float or number.integer)}
    if tokens.string:
        return {'string': tokens.string}
    if tokens.boolean:
        return {'boolean': tokens.boolean[0] == 'true'}
    if tokens.none:
        return {'none': True}
    if tokens.infinity:
        return {'infinity': True}
    return None


def to_tree(tokens):
    """The parse in the order graphite.render.evaluator.evaluateTokens looks at it."""
    if tokens.template:
        template = tokens.template
        inner = call_tree(template.call) if template.call else {'path': template.pathExpression}
        return {
            'template': inner,
            'args': [literal(arg) for arg in (template.args or [])],
            'kwargs': [[kwarg.argname, literal(kwarg.args[0])] for kwarg in (template.kwargs or [])],
        }
    if tokens.expression:
        expression = tokens.expression
        pipes = [call_tree(piped.call) for piped in expression.pipedCalls]
        return {'head': to_tree(expression), 'pipes': pipes} if 'pipedCalls' in expression else to_tree(expression)
    if tokens.pathExpression:
        return {'path': tokens.pathExpression}
    if tokens.call:
        return call_tree(tokens.call)
    return literal(tokens)


def call_tree(call):
    return {
        'call': call.funcname,
        'raw': call.raw,
        'args': [to_tree(arg) for arg in (call.args or [])],
        'kwargs': [[kwarg.argname, to_tree(kwarg.args[0])] for kwarg in (call.kwargs or [])],
    }


def reads(tokens, paths, tags, replacements=None):
    """Like graphite.render.evaluator.extractPathExpressions, plus keyword values, which evaluateTokens fetches too."""
    if tokens.template:
        arglist = {}
        if tokens.template.kwargs:
            arglist.update({kwarg.argname: evaluateScalarTokens(kwarg.args[0]) for kwarg in tokens.template.kwargs})
        if tokens.template.args:
            arglist.update({str(i + 1): evaluateScalarTokens(arg) for i, arg in enumerate(tokens.template.args)})
        reads(tokens.template, paths, tags, arglist)
    elif tokens.expression:
        reads(tokens.expression, paths, tags, replacements)
        for piped in tokens.expression.pipedCalls or []:
            reads(piped, paths, tags, replacements)
    elif tokens.pathExpression:
        expression = tokens.pathExpression
        for name in replacements or {}:
            value = replacements[name]
            if expression == '$' + name:
                if isinstance(value, str):
                    expression = value
                break
            expression = expression.replace('$' + name, str(value))
        paths.append(expression)
    elif tokens.call:
        if tokens.call.funcname == 'seriesByTag':
            # graphite.storage.Store._tag_patterns: the call's text parsed again, its string arguments unquoted
            raw = tokens.call.raw
            if raw.startswith('seriesByTag('):
                tags.append([t.string[1:-1] for t in grammar.parseString(raw).expression.call.args if t.string])
            else:
                paths.append(raw)
            return
        for arg in tokens.call.args or []:
            reads(arg, paths, tags, replacements)
        for kwarg in tokens.call.kwargs or []:
            reads(kwarg.args[0], paths, tags, replacements)


def main():
    if sys.argv[1:] == ['--functions']:
        import django
        django.setup()
        from graphite.functions import SeriesFunctions
        sys.stdout.write(json.dumps(sorted(SeriesFunctions())) + '\n')
        return
    grammar.streamline()
    for line in sys.stdin:
        target = json.loads(line)
        text = target.expandtabs()
        try:
            # parseString's own steps (it expands tabs, then parses from 0), keeping the end position it drops.
            consumed, tokens = grammar._parse(text, 0)
            paths, tags = [], []
            reads(tokens, paths, tags)
            answer = {'consumed': consumed, 'tree': to_tree(tokens), 'paths': paths, 'tags': tags}
        except RecursionError:
            answer = {'error': 'recursion'}
        except Exception as error:  # pyparsing's ParseException and anything the tokens do not hold
            answer = {'error': type(error).__name__ + ': ' + str(error)}
        sys.stdout.write(json.dumps(answer) + '\n')
        sys.stdout.flush()


if __name__ == '__main__':
    main()
