// engine/partiql/expression_writer.h
//
// Writes the DynamoDB expression text (condition, update, projection) that
// a planned PartiQL statement runs with: names become #placeholders, values
// :placeholders, and the writer collects both maps for the request. One
// writer per planned request; not thread-safe.

#ifndef DYNAROCK_ENGINE_PARTIQL_EXPRESSION_WRITER_H_
#define DYNAROCK_ENGINE_PARTIQL_EXPRESSION_WRITER_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/partiql/ast.h"
#include "engine/requests/expression_parameters.h"
#include "engine/types.h"

namespace dynarock::partiql {

class ExpressionWriter {
 public:
  std::string Name(const std::string& name);
  std::string Value(const AttributeValue& v);
  std::string PathText(const Path& path);
  std::string OperandText(const Operand& o);
  // Recursion is bounded by the parser's nesting limit.
  std::string ConditionText(const Condition& c);
  // "((a) AND (b)) OR ((c))" over `branches`, each a conjunction.
  std::string Disjunction(const std::vector<std::vector<const Condition*>>& branches);
  // "(a) AND (b) ..." over `parts`; empty for none.
  std::string Conjunction(const std::vector<const Condition*>& parts);
  // The ProjectionExpression of a SELECT's projection; nullopt for `*`.
  std::optional<std::string> ProjectionText(const Statement& s);
  // The UpdateExpression of an UPDATE's SET and REMOVE actions.
  std::string UpdateText(const Statement& s);

  // The maps of what was written, nullopt when empty (DynamoDB refuses an
  // empty ExpressionAttributeNames or ExpressionAttributeValues).
  std::optional<ExpressionAttributeNames> names() const;
  std::optional<ExpressionAttributeValues> values() const;

 private:
  std::map<std::string, std::string> name_refs_;
  ExpressionAttributeNames names_;
  ExpressionAttributeValues values_;
};

}  // namespace dynarock::partiql

#endif  // DYNAROCK_ENGINE_PARTIQL_EXPRESSION_WRITER_H_
