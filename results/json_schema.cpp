// The draft-07 keywords larm's schemas use, checked over nlohmann::json values.
#include "results/json_schema.h"

#include <optional>
#include <set>
#include <stdexcept>

#include "results/check.h"

namespace larm::results {
namespace {

using json = nlohmann::json;

// Keywords that describe and never constrain.
const std::set<std::string>& annotations() {
  static const std::set<std::string> words{"$schema",  "$id",     "title",   "description",
                                           "$comment", "default", "examples"};
  return words;
}

const std::set<std::string>& constraints() {
  static const std::set<std::string> words{"type",
                                           "enum",
                                           "const",
                                           "minimum",
                                           "maximum",
                                           "exclusiveMinimum",
                                           "exclusiveMaximum",
                                           "minLength",
                                           "maxLength",
                                           "pattern",
                                           "required",
                                           "properties",
                                           "additionalProperties",
                                           "patternProperties",
                                           "minProperties",
                                           "maxProperties",
                                           "items",
                                           "minItems",
                                           "maxItems",
                                           "oneOf",
                                           "anyOf",
                                           "allOf",
                                           "not",
                                           "$ref",
                                           "definitions"};
  return words;
}

// A value as a message shows it: short, on one line.
std::string shown(const json& value) {
  // Containers by their size only: dumping a huge one to show 40 characters would cost its size.
  if (value.is_array()) return "an array of " + std::to_string(value.size()) + " items";
  if (value.is_object()) return "an object of " + std::to_string(value.size()) + " members";
  if (value.is_string() && value.get_ref<const std::string&>().size() > 64) {
    return json(value.get_ref<const std::string&>().substr(0, 64))
               .dump(-1, ' ', false, json::error_handler_t::replace)
               .substr(0, 40) +
           "...";
  }
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// JSON Pointer escaping of one key (RFC 6901).
std::string pointer_key(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

bool has_type(const json& value, const std::string& type) {
  if (type == "null") return value.is_null();
  if (type == "boolean") return value.is_boolean();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "number") return value.is_number();
  if (type == "integer") return value.is_number_integer();
  return false;
}

std::size_t code_points(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

// A violation, and where it is: alternatives report the one found deepest.
struct Violation : std::runtime_error {
  Violation(const std::string& pointer_, const std::string& what)
      : std::runtime_error(pointer_ + ": " + what), pointer(pointer_) {}
  std::string pointer;
};

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw Violation(where.empty() ? std::string("/") : where, what);
}

// Numbers compared as doubles: every bound in larm's schemas is exact in a double, and a value
// beyond 2^53 is beyond every bound by far.
double number(const json& value) {
  return value.get<double>();
}

}  // namespace

JsonSchema::JsonSchema(json schema) : schema_(std::move(schema)) {
  compile(schema_);
}

void JsonSchema::compile(const json& schema) {
  if (schema.is_boolean()) return;
  LARM_CHECK(schema.is_object()) << "schema node " << shown(schema);
  for (const auto& [key, value] : schema.items()) {
    if (annotations().count(key)) continue;
    LARM_CHECK(constraints().count(key)) << "unsupported schema keyword " << key;
    if (key == "$ref") {
      for (const auto& [sibling, unused] : schema.items()) {
        LARM_CHECK(sibling == "$ref" || sibling == "definitions" || annotations().count(sibling))
            << "$ref beside " << sibling << " (draft-07 ignores it)";
      }
      resolve(value.get<std::string>());
    } else if (key == "properties" || key == "patternProperties" || key == "definitions") {
      for (const auto& [name, sub] : value.items()) {
        if (key == "patternProperties") patterns_.emplace(name, std::regex(name));
        compile(sub);
      }
    } else if (key == "items" || key == "additionalProperties" || key == "not") {
      LARM_CHECK(!value.is_array()) << "tuple items are not supported";
      compile(value);
    } else if (key == "oneOf" || key == "anyOf" || key == "allOf") {
      for (const json& sub : value) compile(sub);
    } else if (key == "pattern") {
      patterns_.emplace(value.get<std::string>(), std::regex(value.get<std::string>()));
    }
  }
}

const json& JsonSchema::resolve(const std::string& ref) const {
  if (ref == "#") return schema_;
  const std::string prefix = "#/definitions/";
  LARM_CHECK(ref.rfind(prefix, 0) == 0) << "unsupported $ref " << ref;
  const auto definitions = schema_.find("definitions");
  LARM_CHECK(definitions != schema_.end() && definitions->contains(ref.substr(prefix.size())))
      << "$ref to a missing definition: " << ref;
  return definitions->at(ref.substr(prefix.size()));
}

bool JsonSchema::matches(const std::string& pattern, const std::string& text) const {
  // libstdc++'s std::regex recurses once per character: a version string of a million digits
  // overflowed the stack. No string larm's patterns describe comes near this length.
  if (text.size() > kMaxPatternText) return false;
  return std::regex_search(text, patterns_.at(pattern));
}

void JsonSchema::check(const json& document) const {
  check_node(schema_, document, "");
}

void JsonSchema::check_node(const json& schema, const json& value, const std::string& where) const {
  if (schema.is_boolean()) {
    if (!schema.get<bool>()) fail(where, "is not allowed here");
    return;
  }
  if (const auto ref = schema.find("$ref"); ref != schema.end()) {
    check_node(resolve(ref->get<std::string>()), value, where);
    return;
  }
  if (const auto type = schema.find("type"); type != schema.end()) {
    bool any = false;
    if (type->is_string()) {
      any = has_type(value, type->get<std::string>());
    } else {
      for (const json& t : *type) any = any || has_type(value, t.get<std::string>());
    }
    if (!any) fail(where, shown(value) + " is not of type " + type->dump());
  }
  if (const auto c = schema.find("const"); c != schema.end() && value != *c) {
    fail(where, shown(value) + " is not " + c->dump());
  }
  if (const auto e = schema.find("enum"); e != schema.end()) {
    bool found = false;
    for (const json& allowed : *e) found = found || allowed == value;
    if (!found) fail(where, shown(value) + " is not one of " + e->dump());
  }
  if (value.is_number()) {
    const double v = number(value);
    if (const auto b = schema.find("minimum"); b != schema.end() && v < number(*b)) {
      fail(where, shown(value) + " is below the minimum " + b->dump());
    }
    if (const auto b = schema.find("maximum"); b != schema.end() && v > number(*b)) {
      fail(where, shown(value) + " is above the maximum " + b->dump());
    }
    if (const auto b = schema.find("exclusiveMinimum"); b != schema.end() && !(v > number(*b))) {
      fail(where, shown(value) + " is not above " + b->dump());
    }
    if (const auto b = schema.find("exclusiveMaximum"); b != schema.end() && !(v < number(*b))) {
      fail(where, shown(value) + " is not below " + b->dump());
    }
  }
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (const auto b = schema.find("minLength");
        b != schema.end() && code_points(text) < b->get<std::size_t>()) {
      fail(where, shown(value) + " is shorter than " + b->dump() + " characters");
    }
    if (const auto b = schema.find("maxLength");
        b != schema.end() && code_points(text) > b->get<std::size_t>()) {
      fail(where, shown(value) + " is longer than " + b->dump() + " characters");
    }
    if (const auto p = schema.find("pattern");
        p != schema.end() && !matches(p->get<std::string>(), text)) {
      fail(where, shown(value) + " does not match " + p->dump());
    }
  }
  if (value.is_array()) {
    if (const auto b = schema.find("minItems"); b != schema.end() && value.size() < *b) {
      fail(where, "has fewer than " + b->dump() + " items");
    }
    if (const auto b = schema.find("maxItems"); b != schema.end() && value.size() > *b) {
      fail(where, "has more than " + b->dump() + " items");
    }
    if (const auto items = schema.find("items"); items != schema.end()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        check_node(*items, value[i], where + "/" + std::to_string(i));
      }
    }
  }
  if (value.is_object()) check_object(schema, value, where);
  check_alternatives(schema, value, where);
}

void JsonSchema::check_object(const json& schema, const json& value,
                              const std::string& where) const {
  if (const auto required = schema.find("required"); required != schema.end()) {
    for (const json& name : *required) {
      if (!value.contains(name.get<std::string>())) {
        fail(where, "lacks the required member \"" + name.get<std::string>() + "\"");
      }
    }
  }
  if (const auto b = schema.find("minProperties"); b != schema.end() && value.size() < *b) {
    fail(where, "has fewer than " + b->dump() + " members");
  }
  if (const auto b = schema.find("maxProperties"); b != schema.end() && value.size() > *b) {
    fail(where, "has more than " + b->dump() + " members");
  }
  const auto properties = schema.find("properties");
  const auto pattern_properties = schema.find("patternProperties");
  const auto additional = schema.find("additionalProperties");
  for (const auto& [key, member] : value.items()) {
    const std::string here = where + "/" + pointer_key(key);
    bool declared = false;
    if (properties != schema.end()) {
      if (const auto sub = properties->find(key); sub != properties->end()) {
        declared = true;
        check_node(*sub, member, here);
      }
    }
    if (pattern_properties != schema.end()) {
      for (const auto& [pattern, sub] : pattern_properties->items()) {
        if (matches(pattern, key)) {
          declared = true;
          check_node(sub, member, here);
        }
      }
    }
    if (!declared && additional != schema.end()) {
      if (additional->is_boolean() && !additional->get<bool>()) {
        fail(where, "has an unknown member " + shown(json(key)));
      }
      check_node(*additional, member, here);
    }
  }
}

void JsonSchema::check_alternatives(const json& schema, const json& value,
                                    const std::string& where) const {
  if (const auto all = schema.find("allOf"); all != schema.end()) {
    for (const json& sub : *all) check_node(sub, value, where);
  }
  if (const auto n = schema.find("not"); n != schema.end()) {
    bool passed = true;
    try {
      check_node(*n, value, where);
    } catch (const Violation&) {
      passed = false;
    }
    if (passed) fail(where, shown(value) + " is of a form not allowed here");
  }
  for (const char* keyword : {"oneOf", "anyOf"}) {
    const auto alternatives = schema.find(keyword);
    if (alternatives == schema.end()) continue;
    int passed = 0;
    // The failure to report: the deepest, from inside value (its type matched that alternative,
    // the likeliest meant) rather than one about value itself.
    std::optional<Violation> reason;
    for (const json& sub : *alternatives) {
      try {
        check_node(sub, value, where);
        ++passed;
      } catch (const Violation& e) {
        if (!reason || e.pointer.size() > reason->pointer.size()) reason = e;
      }
    }
    if (passed == 0) {
      if (reason) throw *reason;
      fail(where, shown(value) + " matches none of the allowed forms");
    }
    if (passed > 1 && std::string(keyword) == "oneOf") {
      fail(where, shown(value) + " matches more than one of the allowed forms");
    }
  }
}

}  // namespace larm::results
