import LessonPlanKit

print("lessonplan: under construction")
