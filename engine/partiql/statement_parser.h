// engine/partiql/statement_parser.h
//
// The PartiQL parser: statement text + Parameters -> Statement (ast.h).
// The subset DynamoDB accepts:
//   SELECT * | path {, path} FROM table ["." index] [WHERE cond]
//          [ORDER BY path [ASC | DESC] [, path [ASC | DESC]]]
//   INSERT INTO table VALUE {'name': value, ...}
//   UPDATE table (SET path = value | REMOVE path) {[,] ...} WHERE cond
//          [RETURNING (ALL | MODIFIED) (OLD | NEW) *]
//   DELETE FROM table WHERE cond [RETURNING ALL OLD *]
//   EXISTS (SELECT * FROM table WHERE cond)       (ExecuteTransaction only)
//   cond    := cond OR cond | cond AND cond | NOT cond | (cond)
//            | operand (= | <> | != | < | <= | > | >=) operand
//            | operand [NOT] BETWEEN operand AND operand
//            | operand [NOT] IN [value {, value}]   (or parentheses)
//            | operand IS [NOT] MISSING | operand IS [NOT] NULL
//            | begins_with(path, value) | contains(path, value)
//            | attribute_type(path, value)
//   operand := path | value | size(path)
//   value   := 'string' | number | TRUE | FALSE | NULL | ?
//            | {'name': value, ...} | [value, ...] | <<value, ...>>
//   path    := name {. name | [index]}; a name is bare or "double-quoted"
// Keywords and function names are case-insensitive. A `?` takes the next
// of `parameters`; their counts must match.
//
// Never recurses deeper than kMaxPartiqlNesting levels, whatever the input.
// Errors: kValidation, "Statement wasn't well formed, can't be processed:
// <detail>", or DynamoDB's parameter-count message. Stateless; thread-safe.

#ifndef DYNAROCK_ENGINE_PARTIQL_STATEMENT_PARSER_H_
#define DYNAROCK_ENGINE_PARTIQL_STATEMENT_PARSER_H_

#include <string_view>
#include <vector>

#include "engine/partiql/ast.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::partiql {

Result<Statement> Parse(std::string_view text,
                        const std::vector<AttributeValue>& parameters);

// "Statement wasn't well formed, can't be processed: <detail>".
Status Malformed(std::string_view detail);

}  // namespace dynarock::partiql

#endif  // DYNAROCK_ENGINE_PARTIQL_STATEMENT_PARSER_H_
